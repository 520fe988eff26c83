/**
 * Every operation of every deployed service, from its own /openapi.json, sent malformed input: wrong types, huge
 * values, NUL bytes, lone surrogates, 1e309, arrays for objects, missing and extra fields, bad content types and
 * over-long paths. Never a 500, always the envelope with a request_id, never an internal (stack, SQL, file path).
 * Then every free-text field of every operation gets each adversarial text once (nested template syntax, `<a ` floods,
 * deep nesting; prefix floods and 40 OR-ed operands in search fields), and each answer must come within ADVERSARIAL_MS.
 * FUZZ_SEED=<n> replays a run (fast-check prints the seed and the failing request); FUZZ_RUNS sets runs per operation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { deployedServices, type DeployedService } from "@apiplat/deployment";
import type { ServiceApp } from "@apiplat/service-kit";
import { createTestPlatform, QUIET_SERVICES_ENV, sentenceProblem, type TestPlatform } from "@apiplat/testing";
import { adversarialCasesOf, operationsOf, searchQueriesOf, variantsOf, type FuzzRequest } from "./openapi-variants.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

/** What an answer may never carry: a stack frame, SQL or a database error, a path on the server. */
const INTERNALS = [
  /\n\s+at [^\n]+:\d+:\d+/,
  /\b(?:SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b/,
  /syntax error at or near/,
  /\/(?:work|srv|home|root|usr)\//,
  /node_modules/,
  /\.ts:\d+/,
  /ECONNREFUSED \d/,
];

/** 5xx answers a service may give to good-faith input it cannot serve, each with its documented code. */
/** How long one adversarial request may take to be answered (the bounds make each one cheap or refused). */
const ADVERSARIAL_MS = Number(process.env.FUZZ_ADVERSARIAL_MS ?? 5_000);

const HONEST_5XX: Record<number, string[]> = { 502: ["UPSTREAM_ERROR"], 503: ["UNAVAILABLE", "MODEL_UNAVAILABLE"], 504: ["UPSTREAM_TIMEOUT"] };

let platform: TestPlatform;
const services: DeployedService[] = await deployedServices();
export const counts = { operations: 0, requests: 0, adversarial: 0 };

beforeAll(async () => {
  platform = await createTestPlatform({
    // No scheduled or start-up fetches from the internet: this suite sends traffic to this machine only.
    env: { ...QUIET_SERVICES_ENV, LOG_LEVEL: "silent" },
  });
});
afterAll(async () => {
  await platform?.close();
  console.log(`fuzz: ${counts.operations} operations, ${counts.requests} requests (${counts.adversarial} adversarial texts)`);
});

async function send(app: ServiceApp, headers: Record<string, string>, request: FuzzRequest) {
  return app.inject({
    method: request.method as "GET",
    url: request.url,
    headers: { ...headers, ...(request.contentType ? { "content-type": request.contentType } : {}) },
    ...(request.payload !== undefined ? { payload: request.payload } : {}),
  });
}

function checkAnswer(status: number, headers: Record<string, unknown>, body: string, request: FuzzRequest): void {
  const where = `${request.method} ${request.url.slice(0, 120)} (${request.description})`;
  const contentType = String(headers["content-type"] ?? "");
  if (status >= 500) {
    const allowed = HONEST_5XX[status];
    const code = contentType.includes("json") ? JSON.parse(body)?.error?.code : undefined;
    if (!allowed?.includes(code)) throw new Error(`${where}: ${status} ${body.slice(0, 300)}`);
  }
  if (status >= 400) {
    if (!contentType.includes("application/json")) throw new Error(`${where}: ${status} answered as ${contentType}`);
    const envelope = JSON.parse(body);
    if (envelope.status !== "error" || typeof envelope.error?.code !== "string" || typeof envelope.error?.message !== "string") {
      throw new Error(`${where}: not the error envelope: ${body.slice(0, 300)}`);
    }
    if (!envelope.request_id || envelope.request_id !== headers["x-request-id"]) throw new Error(`${where}: no request_id`);
    const problem = sentenceProblem(envelope);
    if (problem) throw new Error(`${where}: ${problem}`);
  }
  if (contentType.includes("json") || contentType.startsWith("text/")) {
    const leak = INTERNALS.find((pattern) => pattern.test(body));
    if (leak) throw new Error(`${where}: the answer shows an internal (${leak}): ${body.slice(0, 300)}`);
  }
}

describe.each(services.map((service) => [service.name, service] as const))("%s", (name, service) => {
  let app: ServiceApp;
  let headers: Record<string, string>;

  beforeAll(async () => {
    app = await service.build(platform.deps);
    headers = (await platform.subscribe(name, "MEGA")).headers;
  });
  afterAll(async () => {
    await app?.close();
  });

  it("answers every malformed request of every operation in the envelope, without a 500", async () => {
    const document = (await app.inject({ method: "GET", url: "/openapi.json" })).json();
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(0);
    for (const operation of operations) {
      counts.operations++;
      await fc.assert(
        fc.asyncProperty(variantsOf(operation), async (request) => {
          counts.requests++;
          const res = await send(app, headers, request);
          checkAnswer(res.statusCode, res.headers, res.body, request);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    }
  });

  // A catalogue built here has no data yet (it answers 503 while it loads); the services' own search-bounds tests send
  // the same shapes to loaded catalogues.
  it("answers hostile text queries (prefix floods, 32 and more excluded prefixes, minus-sign runs) without a 500", async () => {
    const document = (await app.inject({ method: "GET", url: "/openapi.json" })).json();
    for (const operation of operationsOf(document)) {
      const queries = searchQueriesOf(operation);
      if (!queries) continue;
      await fc.assert(
        fc.asyncProperty(queries, async (request) => {
          counts.requests++;
          const res = await send(app, headers, request);
          checkAnswer(res.statusCode, res.headers, res.body, request);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    }
  });

  // An adversarial text goes in every field at once; the fields a 4xx names are taken out and the rest sent again,
  // so each field is read by the service with the text in it or refused for it. A 4xx naming none of them (a rule
  // across fields) sends each field alone.
  it("answers the adversarial texts in every free-text field within the bound, without a 500", async () => {
    const document = (await app.inject({ method: "GET", url: "/openapi.json" })).json();
    const slow: string[] = [];
    const accepted: string[] = [];
    const answer = async (request: FuzzRequest) => {
      counts.requests++;
      counts.adversarial++;
      const started = performance.now();
      const res = await send(app, headers, request);
      const took = performance.now() - started;
      checkAnswer(res.statusCode, res.headers, res.body, request);
      if (took > ADVERSARIAL_MS) slow.push(`${request.method} ${request.url.slice(0, 80)} (${request.description.slice(0, 120)}): ${Math.round(took)} ms`);
      return res;
    };
    for (const operation of operationsOf(document)) {
      for (const adversarial of adversarialCasesOf(operation)) {
        let fields = adversarial.fields;
        while (fields.length > 0) {
          const res = await answer(adversarial.request(fields));
          if (adversarial.refused && res.statusCode < 400)
            accepted.push(`${operation.method} ${operation.path} (${adversarial.shape} in ${fields.join(", ")})`);
          if (res.statusCode < 400 || res.statusCode >= 500) break;
          const named = new Set<string>((JSON.parse(res.body).error.details ?? []).map((d: { field: string }) => d.field));
          const rest = fields.filter((field) => !named.has(field));
          if (rest.length === fields.length) {
            if (fields.length > 1) {
              for (const field of fields) {
                const alone = await answer(adversarial.request([field]));
                if (adversarial.refused && alone.statusCode < 400) accepted.push(`${operation.method} ${operation.path} (${adversarial.shape} in ${field})`);
              }
            }
            break;
          }
          fields = rest;
        }
      }
    }
    expect(slow).toEqual([]);
    expect(accepted).toEqual([]);
  });
});
