import { readFileSync } from "node:fs";

/**
 * A service's recorded examples (`services/<name>/openapi-examples.json`): for each operation, the request that was
 * sent and the answer the running service gave, written by `npm run record-examples -- <name>`. /openapi.json shows
 * them; the conformance suite checks that every operation has one and that each answer still fits its schema.
 */
export interface ExamplesFile {
  $comment?: string;
  /** How the recorder starts the service: platform environment and files its local site serves (see scripts/record-examples.ts). */
  recording?: RecordingSetup;
  /** Keyed "METHOD /path" with the path as /openapi.json writes it ("GET /property/{id}"), in the order they are recorded. */
  operations: Record<string, RecordedOperation>;
}

export interface RecordingSetup {
  /** Platform and service environment for the recording run (e.g. "EMAIL_INBOUND_PORT": "0"). */
  env?: Record<string, string>;
  /** Pages the recorder's local web site serves, by path, for operations that fetch a URL. */
  site?: Record<string, { content_type: string; body?: string; body_base64?: string }>;
}

export interface RecordedRequest {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** The JSON body as sent. */
  body?: unknown;
}

export interface RecordedResponse {
  status: number;
  content_type?: string;
  /** The JSON body as the service sent it. */
  body?: unknown;
  /** For a body that is not JSON (a PDF, an image, a page, a stream): what it was, instead of its bytes. */
  description?: string;
  /** For a redirect: where it pointed. */
  location?: string;
}

export interface RecordedOperation {
  request: RecordedRequest;
  /**
   * Request values that come from an earlier operation's answer or from the recorder's local site, so that they are
   * real when sent: "params.id": "POST /create data.id" (that operation's response body at that path), or
   * "body.url": "site /article.html" (the local site's URL of that page).
   */
  from?: Record<string, string>;
  /** Absent until the operation is first recorded. */
  response?: RecordedResponse;
  /** Why this machine cannot give the success answer (a model's weights are absent); the response is the real refusal. */
  unavailable_here?: string;
}

export function operationKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}

/** The examples file at `url`, or null when there is none yet (a new service, before its first recording). */
export function readExamplesFile(url: URL): ExamplesFile | null {
  let text: string;
  try {
    text = readFileSync(url, "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return null;
    throw error;
  }
  const file = JSON.parse(text) as ExamplesFile;
  if (!file || typeof file.operations !== "object") throw new Error(`${url.pathname}: expected {"operations": {"METHOD /path": {...}}}`);
  return file;
}

interface Parameter {
  name: string;
  in: string;
  example?: unknown;
}

interface MediaType {
  schema?: unknown;
  example?: unknown;
  examples?: Record<string, { summary?: string; description?: string; value?: unknown }>;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, { description?: string; content?: Record<string, MediaType> }>;
}

type Document = { paths?: Record<string, Record<string, Operation>> };

function requestValue(request: RecordedRequest, parameter: Parameter): unknown {
  if (parameter.in === "path") return request.params?.[parameter.name];
  if (parameter.in === "query") return request.query?.[parameter.name];
  if (parameter.in === "header") {
    const name = parameter.name.toLowerCase();
    return Object.entries(request.headers ?? {}).find(([header]) => header.toLowerCase() === name)?.[1];
  }
  return undefined;
}

function mediaTypeExample(media: MediaType, response: RecordedResponse): void {
  if (response.body !== undefined) media.example = response.body;
  else media.examples = { recorded: { summary: "Recorded from the running service", description: response.description ?? "" } };
}

function placeResponse(operation: Operation, recorded: RecordedOperation): void {
  const { response } = recorded;
  if (!response) return;
  const status = String(response.status);
  operation.responses ??= {};
  if (response.status >= 400 && !operation.responses[status]) {
    // The real refusal of an operation this machine cannot serve: an error answer like the others, in the envelope.
    const error = (response.body as { error?: { code?: string } } | undefined)?.error;
    operation.responses[status] = {
      description: `${error?.code ?? "ERROR"}: ${recorded.unavailable_here ?? "recorded error answer"}`,
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  }
  const answer = operation.responses[status];
  if (!answer) return;
  if (response.location !== undefined) {
    answer.description = `${answer.description ?? ""} (recorded: Location: ${response.location})`.trim();
  }
  const contentType = response.content_type ?? "application/json";
  // A route that answers whatever it was given (a captured body) declares */*.
  const media = answer.content?.[contentType] ?? answer.content?.["*/*"];
  if (media) mediaTypeExample(media, response);
}

function placeRequest(operation: Operation, recorded: RecordedOperation): void {
  const { request } = recorded;
  for (const parameter of operation.parameters ?? []) {
    const value = requestValue(request, parameter);
    if (value !== undefined) parameter.example = value;
  }
  const json = operation.requestBody?.content?.["application/json"];
  if (json && request.body !== undefined) json.example = request.body;
}

/** Puts each recorded request into its operation's parameters and body, and each answer into its response's content. */
export function placeRecordedExamples<D extends Document>(document: D, file: ExamplesFile | null): D {
  if (!file) return document;
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    for (const [method, shared] of Object.entries(operations)) {
      const recorded = file.operations[operationKey(method, path)];
      if (!recorded || !shared || typeof shared !== "object") continue;
      // A route of several methods (a hook URL's seven) is one operation object in the document: each gets its own.
      const operation = (operations[method] = structuredClone(shared));
      placeRequest(operation, recorded);
      placeResponse(operation, recorded);
    }
  }
  return document;
}
