import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { PlanName } from "@apiplat/config";
import { call, startService, type StartedService, type TypedAnswer } from "@apiplat/testing";
import { serviceUnderTest } from "@apiplat/testing/service-under-test";
import type { Static } from "typebox";
import { RenderResultSchema } from "../src/schemas.js";
import pdfService from "../src/service.js";
import type { PdfSettings } from "../src/settings.js";

/** A one-browser pool, so test files stay light, and a queue that waits for slow renders on a busy machine. */
export const TEST_SETTINGS: Partial<PdfSettings> = { browsers: 1, pagesPerBrowser: 2, queueTimeoutMs: 60_000 };

type Answer = Awaited<ReturnType<StartedService["app"]["inject"]>>;

export interface TestService extends StartedService {
  /** The gateway headers of a subscriber on `plan` (PRO unless said), one account per plan. */
  headers: (plan?: PlanName) => Promise<Record<string, string>>;
  /** POST a JSON body as a subscriber of `plan` (MEGA unless said), `query` appended to the path. */
  post: (path: string, payload: unknown, plan?: PlanName, query?: string) => Promise<Answer>;
  /** The same request for an answer in JSON, typed: a refusal, or with ?response=json the PDF's envelope. */
  ask: (path: string, payload: unknown, plan?: PlanName, query?: string) => Promise<TypedAnswer<Static<typeof RenderResultSchema>>>;
}

/**
 * The started service once its browsers answer (/ready), with a subscriber per plan at hand. The pool warms up in the
 * background; waiting here keeps a browser launch out of the first test's render time and budget.
 */
export async function whenBrowsersWarm(started: StartedService, waitMs = 60_000): Promise<TestService> {
  const deadline = Date.now() + waitMs;
  while ((await started.app.inject({ method: "GET", url: "/ready" })).statusCode !== 200) {
    if (Date.now() > deadline) throw new Error(`the browsers did not start within ${waitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const keys = new Map<PlanName, Record<string, string>>();
  const headers = async (plan: PlanName = "PRO") => {
    if (!keys.has(plan)) keys.set(plan, (await started.subscribe(plan)).headers);
    return keys.get(plan)!;
  };
  const post: TestService["post"] = async (path, payload, plan = "MEGA", query = "") =>
    started.app.inject({ method: "POST", url: `${path}${query}`, headers: await headers(plan), payload: payload as object });
  const ask: TestService["ask"] = async (path, payload, plan = "MEGA", query = "") =>
    call(started, RenderResultSchema, { method: "POST", url: `${path}${query}`, headers: await headers(plan), payload });
  return Object.assign(started, { headers, post, ask });
}

/** A web site on loopback for /from-url and allowed_origins tests; counts the requests each path received. */
export interface TestSite {
  origin: string;
  hits: Map<string, number>;
  close: () => Promise<void>;
}

export async function startSite(routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void>, host = "127.0.0.1"): Promise<TestSite> {
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes[path];
    if (route) return route(req, res);
    res.writeHead(404, { "content-type": "text/html" }).end("<h1>Not found</h1>");
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function html(body: string, head = ""): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;
}

/** A document of exactly `pages` pages: one short paragraph per page, each followed by a forced page break. */
export function pagedHtml(pages: number, label = "Page body"): string {
  const sections = Array.from({ length: pages }, (_, i) => `<section style="${i < pages - 1 ? "break-after:page" : ""}">${label} ${i + 1}</section>`);
  return html(sections.join(""));
}

export function pdfBytes(res: { rawPayload: Buffer }): Uint8Array {
  return new Uint8Array(res.rawPayload);
}

/** The service for a file's tests: started (on TEST_SETTINGS) once its browsers are warm, closed after the tests. */
export const warmServiceUnderTest = () => serviceUnderTest(async () => whenBrowsersWarm(await startService(pdfService, { settings: TEST_SETTINGS })));
