/**
 * Typed requests for tests: the answer's `data` has the type of the route's TypeBox schema instead of the `any` that
 * `res.json()` gives, so a test that reads a field the schema does not declare fails the typecheck.
 */
import type { OutgoingHttpHeaders } from "node:http";
import { Type, type Static, type TSchema } from "typebox";
import type { ErrorSchema, ServiceApp } from "@apiplat/service-kit";

/** A success's envelope, its data as the route's schema declares it. */
export interface Success<Data> {
  status: "success";
  data: Data;
  timestamp: string;
}

/** A refusal's envelope, the same for every service. */
export type Refusal = Static<typeof ErrorSchema>;

export interface TypedAnswer<Data> {
  status: number;
  headers: OutgoingHttpHeaders;
  /** The whole JSON envelope as it came (undefined for an empty body). */
  body: Success<Data> | Refusal;
  /** The success's data. Reading it from a refusal fails the test, naming the refusal. */
  readonly data: Data;
  /** The refusal's error: code, message, details. Reading it from a success fails the test. */
  readonly error: Refusal["error"];
}

/** The schema for a request whose refusal is what the test reads: its `data` is `unknown`. */
export const UnknownData = Type.Unknown();

/** The data of every service's /ready (the service kit's route, which declares no response schema). */
export const Readiness = Type.Object({ status: Type.Literal("ready"), checks: Type.Record(Type.String(), Type.Literal("ok")) });

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface TypedRequest {
  method?: Method;
  url: string;
  headers?: Record<string, string>;
  payload?: unknown;
}

/**
 * One request through `app.inject()`. `schema` is the route's data schema (e.g. `S.Note`, what the route wraps in
 * `successSchema(...)`); it only types the answer: the conformance suite checks recorded answers against the schemas.
 */
export async function call<Schema extends TSchema>(
  started: { app: ServiceApp },
  schema: Schema,
  { method = "GET", url, headers = {}, payload }: TypedRequest,
): Promise<TypedAnswer<Static<Schema>>> {
  const res = await started.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  return typedAnswer(res.statusCode, res.headers, res.body);
}

function typedAnswer<Data>(status: number, headers: OutgoingHttpHeaders, text: string): TypedAnswer<Data> {
  const body = (text === "" ? undefined : JSON.parse(text)) as Success<Data> | Refusal;
  return {
    status,
    headers,
    body,
    get data() {
      if (body?.status !== "success") throw new Error(`expected a success, the answer is ${status}: ${text}`);
      return body.data;
    },
    get error() {
      if (body?.status !== "error") throw new Error(`expected a refusal, the answer is ${status}: ${text}`);
      return body.error;
    },
  };
}

export interface TypedClient {
  get<Schema extends TSchema>(schema: Schema, url: string, headers?: Record<string, string>): Promise<TypedAnswer<Static<Schema>>>;
  delete<Schema extends TSchema>(schema: Schema, url: string, headers?: Record<string, string>): Promise<TypedAnswer<Static<Schema>>>;
  post<Schema extends TSchema>(schema: Schema, url: string, payload: unknown, headers?: Record<string, string>): Promise<TypedAnswer<Static<Schema>>>;
  put<Schema extends TSchema>(schema: Schema, url: string, payload: unknown, headers?: Record<string, string>): Promise<TypedAnswer<Static<Schema>>>;
  patch<Schema extends TSchema>(schema: Schema, url: string, payload: unknown, headers?: Record<string, string>): Promise<TypedAnswer<Static<Schema>>>;
}

/** `call` bound to a started service and a caller's headers; a call's own `headers` replace them (another caller, none). */
export function client(started: { app: ServiceApp }, defaultHeaders: Record<string, string> = {}): TypedClient {
  const withoutBody =
    (method: Method) =>
    <Schema extends TSchema>(schema: Schema, url: string, headers = defaultHeaders) =>
      call(started, schema, { method, url, headers });
  const withBody =
    (method: Method) =>
    <Schema extends TSchema>(schema: Schema, url: string, payload: unknown, headers = defaultHeaders) =>
      call(started, schema, { method, url, headers, payload });
  return { get: withoutBody("GET"), delete: withoutBody("DELETE"), post: withBody("POST"), put: withBody("PUT"), patch: withBody("PATCH") };
}

/** The data of the route whose path prefix begins `url`, in a table from path prefix to data type. */
export type DataAtPath<Routes, Url extends string> = {
  [Prefix in keyof Routes & string]: Url extends `${Prefix}${string}` ? Routes[Prefix] : never;
}[keyof Routes & string];

/**
 * GETs typed from their URL alone, for a service whose tests ask many routes by URL: `Routes` maps each path prefix
 * to its data type, `{ "/search": Static<typeof S.SearchPage>, "/company/": ... }`. A call's own headers replace these.
 */
export function routeGetter<Routes>(started: { app: ServiceApp }, headers: Record<string, string>) {
  return <Url extends string>(url: Url, callHeaders: Record<string, string> = headers) =>
    call(started, UnknownData, { url, headers: callHeaders }) as Promise<TypedAnswer<DataAtPath<Routes, Url>>>;
}
