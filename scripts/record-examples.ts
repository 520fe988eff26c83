/**
 * `npm run record-examples -- <service>... | --all`: records the examples /openapi.json shows. For each service it
 * starts the service as the tests do (PostgreSQL at TEST_DATABASE_URL, the real datasets of DATASETS_DIR and models of MODELS_DIR),
 * makes an account with a key, sends every operation's request from `services/<name>/openapi-examples.json` over HTTP
 * and writes the service's real answer back into that file.
 *
 * An operation without parameters needs nothing in the file. One that takes any gets its request written once under
 * `operations["METHOD /path"].request` (`params`, `query`, `headers`, `body`); a value only an earlier answer knows
 * (a generated id) is named in `from` ("params.id": "POST /create data.id"), as is a URL of a page to fetch
 * ("site /page.html": the recorder's local web site serves `recording.site`; any other path answers 200, as a webhook
 * receiver), a token the service wrote to a file ("file outbox <regex>", under the run's scratch directory, which
 * `recording.env` values name as ${RECORDING_DIR}) and an instant ahead ("time +2h"). `recording.env` adds platform
 * and service settings for the run. Operations are sent in the file's order, new ones after. A 503 (a model or browser this machine lacks) is recorded as `unavailable_here`; any other error
 * keeps the previous recording and fails the run, naming the operation.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { randomBytes } from "node:crypto";
import { loadConfig } from "@apiplat/config";
import { deployedServiceNames } from "@apiplat/deployment";
import { buildAdminApp, ADMIN_EXAMPLES } from "@apiplat/admin";
import {
  operationKey,
  readExamplesFile,
  type ExamplesFile,
  type RecordedOperation,
  type RecordedRequest,
  type RecordedResponse,
  type ServiceApp,
  type ServiceManifest,
} from "@apiplat/service-kit";
import { createTestPlatform, startService, type TestPlatform } from "@apiplat/testing";

const root = path.resolve(import.meta.dirname, "..");
const servicesDir = path.join(root, "services");
const ADMIN = "admin";
const READY_WAIT_MS = 300_000;
const REQUEST_TIMEOUT_MS = 180_000;
/** How long a stream (server-sent events) is read before its first events are recorded. */
const STREAM_READ_MS = 1_500;

const COMMENT =
  "Recorded from the running service by `npm run record-examples -- NAME` (scripts/record-examples.ts): edit a request, then re-record; the responses are the service's own.";

interface Operation {
  method: string;
  path: string;
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { required?: boolean };
  /** [] on a public route (a hook URL, a tracking pixel): no key is sent to it. */
  security?: unknown[];
}

interface Target {
  name: string;
  file: URL;
  /** Headers that authenticate a request (the gateway key, or the admin token). */
  headers: Record<string, string>;
  url: string;
  close(): Promise<void>;
  /** Why the manifest does not show this file in /openapi.json, when it does not. */
  unwired?: string;
}

function usage(): never {
  console.error("usage: npm run record-examples -- <service>... | --all   (a folder of services/, or admin)");
  process.exit(2);
}

/** The platform a recording runs on: the tests' one (PostgreSQL and Redis, isolated), with the real datasets and models, quiet schedules. */
function recordingEnv(file: ExamplesFile | null, recordingDir: string): Record<string, string> {
  const config = loadConfig(process.env);
  return {
    DATASETS_DIR: config.datasetsDir,
    MODELS_DIR: config.modelsDir,
    LOG_LEVEL: "silent",
    // The local web site the recorder serves is on loopback.
    OUTBOUND_ALLOW_CIDRS: "127.0.0.0/8",
    // Nothing scheduled reaches the internet during a recording.
    CURRENCY_FETCH_SCHEDULE: "off",
    CURRENCY_FETCH_ON_START: "false",
    ...Object.fromEntries(Object.entries(file?.recording?.env ?? {}).map(([name, value]) => [name, value.replaceAll("${RECORDING_DIR}", recordingDir)])),
  };
}

async function startSite(file: ExamplesFile | null): Promise<Server> {
  const pages = file?.recording?.site ?? {};
  const server = createServer((request, response) => {
    request.resume();
    const page = pages[new URL(request.url ?? "/", "http://site").pathname];
    if (page) response.writeHead(200, { "content-type": page.content_type }).end(page.body_base64 ? Buffer.from(page.body_base64, "base64") : page.body);
    else response.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

async function manifestOf(name: string): Promise<ServiceManifest<unknown, unknown>> {
  const packageFile = path.join(servicesDir, name, "package.json");
  if (!existsSync(packageFile)) throw new Error(`${name}: there is no services/${name}/package.json`);
  const entry = JSON.parse(readFileSync(packageFile, "utf8")).exports?.["."];
  return (await import(pathToFileURL(path.join(servicesDir, name, entry)).href)).default;
}

async function untilReady(url: string): Promise<void> {
  const deadline = Date.now() + READY_WAIT_MS;
  while (Date.now() < deadline) {
    const status = await fetch(`${url}/ready`).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  console.warn(`  not ready after ${READY_WAIT_MS / 1000} s: recording anyway (answers may say what is missing)`);
}

async function startTarget(name: string, env: Record<string, string>): Promise<Target> {
  const defaultFile = pathToFileURL(path.join(servicesDir, name, "openapi-examples.json"));
  if (name === ADMIN) {
    const platform: TestPlatform = await createTestPlatform({ env });
    const token = randomBytes(24).toString("base64url");
    const app: ServiceApp = await buildAdminApp({ ...platform.deps, adminToken: token, deployed: deployedServiceNames() });
    await app.listen({ port: 0, host: "127.0.0.1" });
    return {
      name,
      file: ADMIN_EXAMPLES,
      headers: { authorization: `Bearer ${token}` },
      url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
      close: async () => {
        await app.close();
        await platform.close();
      },
    };
  }
  const manifest = await manifestOf(name);
  const started = await startService(manifest, { listen: true, env });
  const subscriber = await started.subscribe("MEGA");
  const wired = manifest.examples?.href === defaultFile.href;
  return {
    name,
    file: defaultFile,
    headers: subscriber.headers,
    url: started.url,
    close: () => started.close(),
    unwired: wired
      ? undefined
      : `services/${name}/src/service.ts: add \`examples: new URL("../openapi-examples.json", import.meta.url),\` to the manifest so that /openapi.json shows them`,
  };
}

async function operationsOf(target: Target): Promise<Operation[]> {
  const document = (await (await fetch(`${target.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, Omit<Operation, "method" | "path">>> };
  return Object.entries(document.paths).flatMap(([route, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({ ...operation, method: method.toUpperCase(), path: route })),
  );
}

function needsSeed(operation: Operation): boolean {
  return Boolean(operation.requestBody?.required || operation.parameters?.some((parameter) => parameter.required));
}

function valueAt(source: unknown, dotted: string): unknown {
  return dotted.split(".").reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], source);
}

function setAt(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const keys = dotted.split(".");
  let node = target;
  keys.slice(0, -1).forEach((key, index) => {
    // "files.0" makes files an array.
    node = (node[key] ??= /^\d+$/.test(keys[index + 1]) ? [] : {}) as Record<string, unknown>;
  });
  node[keys.at(-1)!] = value;
}

const FILE_WAIT_MS = 20_000;

/** The first match of `pattern` in the newest file under `dir` that has one, waiting for files written in the background. */
async function matchInFiles(dir: string, pattern: RegExp): Promise<string | undefined> {
  const deadline = Date.now() + FILE_WAIT_MS;
  while (Date.now() < deadline) {
    const files = existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()) : [];
    const paths = files.map((entry) => path.join(entry.parentPath, entry.name)).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
    for (const file of paths) {
      // Mail is quoted-printable: join its soft line breaks and decode "=" before matching.
      const text = readFileSync(file, "utf8")
        .replace(/=\r?\n/g, "")
        .replace(/=3D/g, "=");
      const found = pattern.exec(text)?.[1];
      if (found) return found;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return undefined;
}

const DURATION_UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

interface Sources {
  recorded: ExamplesFile["operations"];
  siteUrl: string;
  recordingDir: string;
}

/** The value a `from` source names: an earlier answer's field, a page of the local site, a file's match, a time. */
async function sourceValue(source: string, { recorded, siteUrl, recordingDir }: Sources): Promise<unknown> {
  const site = /^site (\/.*)$/.exec(source);
  if (site) return `${siteUrl}${site[1]}`;
  const file = /^file (\S+) (.+)$/.exec(source);
  if (file) return matchInFiles(path.join(recordingDir, file[1]), new RegExp(file[2]));
  const time = /^time \+(\d+)([mhd])$/.exec(source);
  if (time) return new Date(Date.now() + Number(time[1]) * DURATION_UNITS[time[2]]).toISOString();
  const [, operation, answerPath] = /^(\S+ \S+) (\S+)$/.exec(source) ?? [];
  const answer = operation ? recorded[operation]?.response?.body : undefined;
  return answer === undefined ? undefined : valueAt(answer, answerPath);
}

/** The request with the values named in `from` filled in. */
async function resolvedRequest(key: string, entry: RecordedOperation, sources: Sources): Promise<RecordedRequest> {
  const request = structuredClone(entry.request ?? {}) as Record<string, unknown>;
  for (const [field, source] of Object.entries(entry.from ?? {})) {
    const value = await sourceValue(source, sources);
    if (value === undefined) throw new Error(`from.${field} names "${source}", which gave nothing`);
    setAt(request, field, value);
  }
  return request as RecordedRequest;
}

function urlOf(target: Target, operation: Operation, request: RecordedRequest): string {
  const route = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = request.params?.[name];
    if (value === undefined) throw new Error(`${operationKey(operation.method, operation.path)}: request.params.${name} is missing`);
    // A trailing wildcard ({*}) takes a path of several segments.
    return name === "*" ? String(value).split("/").map(encodeURIComponent).join("/") : encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query ?? {})) {
    for (const item of [value].flat()) query.append(name, typeof item === "string" ? item : JSON.stringify(item));
  }
  return `${target.url}${route}${query.size ? `?${query}` : ""}`;
}

function mediaType(contentType: string | null): string | undefined {
  return contentType?.split(";")[0].trim().toLowerCase() || undefined;
}

function describeBytes(type: string | undefined, bytes: Buffer): string {
  const size = `${bytes.length.toLocaleString("en-US")} bytes`;
  if (bytes.length === 0) return "no body";
  const text = bytes.toString("utf8");
  const printable = /^[\x09\x0a\x0d\x20-\x7e]*$/.test(text.slice(0, 16));
  if (type?.startsWith("text/") || type === "application/xml") {
    const start = text.replace(/\s+/g, " ").trim().slice(0, 160);
    return `${type}, ${size}, beginning "${start}${text.length > 160 ? "…" : ""}"`;
  }
  return `${type ?? "a body"} of ${size}${printable ? `, beginning "${text.slice(0, 8).trim()}"` : ""}`;
}

async function bodyOf(response: Response, type: string | undefined): Promise<Buffer> {
  if (type !== "text/event-stream" || !response.body) return Buffer.from(await response.arrayBuffer());
  // A stream never ends by itself: its first events are the example.
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  const stop = setTimeout(() => void reader.cancel(), STREAM_READ_MS);
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done || !value) break;
    chunks.push(value);
  }
  clearTimeout(stop);
  return Buffer.concat(chunks);
}

async function send(target: Target, operation: Operation, request: RecordedRequest): Promise<RecordedResponse> {
  const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
  const headers: Record<string, string> = { ...(isPublic ? {} : target.headers), ...request.headers };
  if (request.body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(urlOf(target, operation, request), {
    method: operation.method,
    headers,
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
    redirect: "manual",
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const type = mediaType(response.headers.get("content-type"));
  const bytes = await bodyOf(response, type);
  const recorded: RecordedResponse = { status: response.status };
  if (type) recorded.content_type = type;
  const location = response.headers.get("location");
  if (location) recorded.location = location;
  if (operation.method === "HEAD") recorded.description = `no body (HEAD), content-length ${response.headers.get("content-length") ?? "absent"}`;
  else if (bytes.length > 0 && (type === "application/json" || type?.endsWith("+json"))) recorded.body = JSON.parse(bytes.toString("utf8"));
  else recorded.description = describeBytes(type, bytes);
  return recorded;
}

function errorMessage(response: RecordedResponse): string {
  const error = (response.body as { error?: { code?: string; message?: string } } | undefined)?.error;
  return error ? `${error.code}: ${error.message}` : (response.description ?? "");
}

interface Outcome {
  recorded: number;
  unavailable: string[];
  failures: string[];
  dropped: string[];
}

async function recordService(name: string): Promise<Outcome> {
  const defaultFile = name === ADMIN ? ADMIN_EXAMPLES : pathToFileURL(path.join(servicesDir, name, "openapi-examples.json"));
  const existing = readExamplesFile(defaultFile);
  const site = await startSite(existing);
  const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const recordingDir = mkdtempSync(path.join(tmpdir(), `record-examples-${name}-`));
  const target = await startTarget(name, recordingEnv(existing, recordingDir));
  const outcome: Outcome = { recorded: 0, unavailable: [], failures: [], dropped: [] };
  try {
    await untilReady(target.url);
    const operations = await operationsOf(target);
    const byKey = new Map(operations.map((operation) => [operationKey(operation.method, operation.path), operation]));
    const previous = existing?.operations ?? {};
    const order = [...Object.keys(previous).filter((key) => byKey.has(key)), ...[...byKey.keys()].filter((key) => !(key in previous))];
    outcome.dropped = Object.keys(previous).filter((key) => !byKey.has(key));
    const recorded: ExamplesFile["operations"] = {};
    for (const key of order) {
      const operation = byKey.get(key)!;
      const entry: RecordedOperation | undefined = previous[key];
      if (!entry?.request && needsSeed(operation)) {
        outcome.failures.push(`${key}: takes required parameters or a body: write its request under operations["${key}"].request`);
        continue;
      }
      const seed: RecordedOperation = entry ?? { request: {} };
      let request: RecordedRequest;
      let response: RecordedResponse;
      try {
        request = await resolvedRequest(key, seed, { recorded, siteUrl, recordingDir });
        response = await send(target, operation, request);
      } catch (error) {
        outcome.failures.push(`${key}: ${(error as Error).message}`);
        if (entry) recorded[key] = entry;
        continue;
      }
      const next: RecordedOperation = { request, ...(seed.from ? { from: seed.from } : {}), response };
      if (response.status === 503) {
        next.unavailable_here = errorMessage(response);
        outcome.unavailable.push(`${key}: ${next.unavailable_here}`);
      } else if (response.status >= 400) {
        outcome.failures.push(`${key}: answered ${response.status} ${errorMessage(response)}: fix its request (the previous recording is kept)`);
        if (entry) recorded[key] = entry;
        continue;
      }
      recorded[key] = next;
      outcome.recorded++;
    }
    const file: ExamplesFile = {
      $comment: COMMENT.replace("NAME", name),
      ...(existing?.recording ? { recording: existing.recording } : {}),
      operations: recorded,
    };
    writeFileSync(target.file, `${JSON.stringify(file, null, 2)}\n`);
    if (target.unwired) outcome.failures.push(target.unwired);
  } finally {
    await target.close();
    await new Promise((resolve) => site.close(resolve));
    rmSync(recordingDir, { recursive: true, force: true });
  }
  return outcome;
}

function targetsOf(args: string[]): string[] {
  if (args.includes("--all")) {
    const template = readdirSync(servicesDir).filter((name) => name.startsWith("_") && existsSync(path.join(servicesDir, name, "package.json")));
    return [ADMIN, ...deployedServiceNames(), ...template];
  }
  if (args.length === 0 || args.some((arg) => arg.startsWith("-"))) usage();
  return args;
}

const targets = targetsOf(process.argv.slice(2).filter((arg) => arg !== "--"));
let failed = false;
for (const name of targets) {
  console.log(`${name}: recording`);
  const outcome = await recordService(name).catch((error: Error) => ({ recorded: 0, unavailable: [], dropped: [], failures: [error.stack ?? error.message] }));
  console.log(`${name}: ${outcome.recorded} operations recorded`);
  for (const line of outcome.unavailable) console.log(`  unavailable here: ${line}`);
  for (const line of outcome.dropped) console.log(`  dropped (the service no longer has it): ${line}`);
  for (const line of outcome.failures) console.error(`  FAILED ${line}`);
  if (outcome.failures.length > 0) failed = true;
}
process.exit(failed ? 1 : 0);
