/**
 * Every operation of every deployed service, the admin API and the template shows in /openapi.json a request and an
 * answer recorded from the running service (services/<name>/openapi-examples.json, `npm run record-examples`), and
 * every recorded answer still fits the schema the operation declares for it.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { buildAdminApp, ADMIN_EXAMPLES } from "@apiplat/admin";
import { deployedServiceNames } from "@apiplat/deployment";
import {
  buildService,
  operationKey,
  placeRecordedExamples,
  readExamplesFile,
  type ExamplesFile,
  type ServiceApp,
  type ServiceManifest,
} from "@apiplat/service-kit";
import { createTestPlatform, QUIET_SERVICES_ENV, type TestPlatform } from "@apiplat/testing";

const servicesDir = path.resolve(import.meta.dirname, "../../../services");
const ADMIN = "admin";
const TEMPLATE = "_template";
const targets = [ADMIN, ...deployedServiceNames(), TEMPLATE];

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
}
interface MediaType {
  schema?: unknown;
  example?: unknown;
  examples?: Record<string, unknown>;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, { content?: Record<string, MediaType> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
}

const fix = (name: string) =>
  `Fix: give each operation listed its request in services/${name}/openapi-examples.json ` +
  `(operations["METHOD /path"].request, see docs/DEVELOPING.md "Recorded examples"), then run \`npm run record-examples -- ${name}\``;

async function manifestOf(name: string): Promise<ServiceManifest<unknown, unknown>> {
  const entry = JSON.parse(readFileSync(path.join(servicesDir, name, "package.json"), "utf8")).exports["."];
  return (await import(pathToFileURL(path.join(servicesDir, name, entry)).href)).default;
}

/** Checks the recorded answers against the document's own schemas ($refs into its components resolve). */
function schemaValidator(document: Document) {
  const ajv = new Ajv({ strict: false, allErrors: true });
  (addFormats as unknown as (ajv: Ajv) => void)(ajv);
  ajv.addSchema(document as object, "openapi.json");
  return (pointer: string, value: unknown): string[] => {
    const validate = ajv.compile({ $ref: `openapi.json#${pointer}` });
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => `${error.instancePath || "(body)"} ${error.message}`);
  };
}

const escape = (segment: string) => encodeURIComponent(segment.replace(/~/g, "~0").replace(/\//g, "~1"));

function requestProblems(key: string, operation: Operation): string[] {
  const problems: string[] = [];
  const parameters = operation.parameters ?? [];
  for (const parameter of parameters.filter((p) => p.required && p.example === undefined)) {
    problems.push(`${key}: the required ${parameter.in} parameter ${parameter.name} has no example`);
  }
  if (parameters.length > 0 && !parameters.some((p) => p.example !== undefined)) problems.push(`${key}: none of its parameters has an example`);
  const bodies = Object.values(operation.requestBody?.content ?? {});
  if (operation.requestBody && !bodies.some((media) => media.example !== undefined || media.examples)) problems.push(`${key}: its request body has no example`);
  return problems;
}

function responseProblems(
  key: string,
  method: string,
  route: string,
  operation: Operation,
  file: ExamplesFile,
  validate: ReturnType<typeof schemaValidator>,
): string[] {
  const recorded = file.operations[key];
  if (!recorded.response) return [`${key}: its request is written but no answer is recorded yet`];
  const { status, content_type: type = "application/json", body } = recorded.response;
  if (status >= 400 && !recorded.unavailable_here) return [`${key}: the recorded answer is an error (${status}), not a success`];
  const answer = operation.responses?.[String(status)];
  if (!answer) return [`${key}: recorded ${status}, which /openapi.json does not declare (declared: ${Object.keys(operation.responses ?? {}).join(", ")})`];
  const anyType = !answer.content?.[type] && answer.content?.["*/*"] !== undefined;
  const media = answer.content?.[type] ?? answer.content?.["*/*"];
  if (!media) {
    const bodiless = status === 204 || method === "head" || recorded.response.description === "no body";
    return bodiless ? [] : [`${key}: ${status} declares no ${type} content, so its recorded answer cannot be shown or checked`];
  }
  if (body === undefined) return media.examples ? [] : [`${key}: ${status} ${type} shows no example`];
  // Bytes echoed as they were given (*/*) have no shape to check.
  if (anyType) return media.example === undefined ? [`${key}: ${status} */* shows no example`] : [];
  if (!media.schema) return [`${key}: ${status} ${type} declares no schema to check the recorded answer against`];
  const problems: string[] = [];
  if (JSON.stringify(media.example) !== JSON.stringify(body)) problems.push(`${key}: /openapi.json does not show the recorded answer`);
  const pointer = `/paths/${escape(route)}/${method}/responses/${status}/content/${escape(type)}/schema`;
  for (const issue of validate(pointer, body)) problems.push(`${key}: the recorded ${status} answer does not fit its schema: ${issue}`);
  return problems;
}

/** Everything missing or stale in a service's recorded examples, one line each. */
function examplesProblems(document: Document, file: ExamplesFile | null): string[] {
  if (!file) return ["there is no openapi-examples.json"];
  const validate = schemaValidator(document);
  const problems: string[] = [];
  const documented = new Set<string>();
  for (const [route, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const key = operationKey(method, route);
      documented.add(key);
      if (!file.operations[key]) {
        problems.push(`${key}: no recorded example`);
        continue;
      }
      problems.push(...requestProblems(key, operation), ...responseProblems(key, method, route, operation, file, validate));
    }
  }
  for (const key of Object.keys(file.operations).filter((key) => !documented.has(key))) {
    problems.push(`${key}: recorded, but the service has no such operation`);
  }
  return problems;
}

let platform: TestPlatform;
beforeAll(async () => {
  platform = await createTestPlatform({ env: { ...QUIET_SERVICES_ENV, LOG_LEVEL: "silent" } });
});
afterAll(() => platform?.close());

describe.each(targets)("%s", (name) => {
  let app: ServiceApp | undefined;
  afterAll(() => app?.close());

  // Some services take a while to build (a gazetteer, a browser pool) on a machine shared with other work.
  it("shows a recorded request and answer for every operation, each answer fitting its schema", { timeout: 180_000 }, async () => {
    let file: ExamplesFile | null;
    if (name === ADMIN) {
      app = await buildAdminApp({ ...platform.deps, adminToken: "a".repeat(32), deployed: deployedServiceNames() });
      file = readExamplesFile(ADMIN_EXAMPLES);
    } else {
      const manifest = await manifestOf(name);
      const expected = pathToFileURL(path.join(servicesDir, name, "openapi-examples.json")).href;
      expect(
        manifest.examples?.href,
        `the manifest names its examples: add \`examples: new URL("../openapi-examples.json", import.meta.url),\` to services/${name}/src/service.ts, then run \`npm run record-examples -- ${name}\``,
      ).toBe(expected);
      expect(existsSync(new URL(expected)), `services/${name}/openapi-examples.json exists: run \`npm run record-examples -- ${name}\``).toBe(true);
      app = await buildService(manifest, platform.deps);
      file = readExamplesFile(new URL(expected));
    }
    const document = (await app.inject({ method: "GET", url: "/openapi.json" })).json() as Document;
    expect(examplesProblems(document, file), fix(name)).toEqual([]);
  });
});

describe("the check itself", () => {
  let document: Document;
  let file: ExamplesFile;
  let app: ServiceApp;
  beforeAll(async () => {
    app = await buildService(await manifestOf("text-toolkit"), platform.deps);
    document = (await app.inject({ method: "GET", url: "/openapi.json" })).json() as Document;
    file = readExamplesFile(pathToFileURL(path.join(servicesDir, "text-toolkit", "openapi-examples.json")))!;
  });
  afterAll(() => app?.close());

  /** The document as the service would show it with `file` instead of its own examples. */
  const documentWith = (edited: ExamplesFile): Document => placeRecordedExamples(stripExamples(structuredClone(document)) as never, edited);

  it("passes on the recorded file", () => {
    expect(examplesProblems(documentWith(file), file)).toEqual([]);
  });

  it("fails when an operation's example is removed", () => {
    const edited = structuredClone(file);
    delete edited.operations["POST /slug"];
    expect(examplesProblems(documentWith(edited), edited)).toEqual(["POST /slug: no recorded example"]);
  });

  it("fails when a recorded answer no longer fits the schema", () => {
    const edited = structuredClone(file);
    (edited.operations["GET /uuid"].response!.body as { data: { count: unknown } }).data.count = "two";
    expect(examplesProblems(documentWith(edited), edited)).toEqual(["GET /uuid: the recorded 200 answer does not fit its schema: /data/count must be integer"]);
  });

  it("fails when the file records an operation the service does not have", () => {
    const edited = structuredClone(file);
    edited.operations["GET /gone"] = edited.operations["GET /uuid"];
    expect(examplesProblems(documentWith(edited), edited)).toEqual(["GET /gone: recorded, but the service has no such operation"]);
  });
});

/** The document without any recorded example, as a service without a file shows it. */
function stripExamples(document: Document): Document {
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations)) {
      for (const parameter of operation.parameters ?? []) delete parameter.example;
      for (const media of Object.values(operation.requestBody?.content ?? {})) delete media.example;
      for (const [status, answer] of Object.entries(operation.responses ?? {})) {
        if (Number(status) >= 400) continue;
        for (const media of Object.values(answer.content ?? {})) {
          delete media.example;
          delete media.examples;
        }
      }
    }
  }
  return document;
}
