import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createTestPlatform, type TestPlatform } from "@apiplat/testing";
import type { PlanName } from "@apiplat/service-kit";
import { buildApp } from "../src/app.js";
import { DEFAULT_SETTINGS, type PdfSettings } from "../src/settings.js";

export type App = Awaited<ReturnType<typeof buildApp>>;

export interface TestService {
  app: App;
  platform: TestPlatform;
  headers: (plan?: PlanName) => Promise<Record<string, string>>;
  /** POST a JSON body as a subscriber of `plan` (MEGA unless said), `query` appended to the path. */
  post: (path: string, payload: unknown, plan?: PlanName, query?: string) => Promise<Awaited<ReturnType<App["inject"]>>>;
  close: () => Promise<void>;
}

/** The service on the real test PostgreSQL and Redis, with a one-browser pool so test files stay light. */
export async function startService(env: Record<string, string> = {}, settings: Partial<PdfSettings> = {}): Promise<TestService> {
  const platform = await createTestPlatform({ env });
  const app = await buildApp({ ...platform.deps, settings: { ...DEFAULT_SETTINGS, browsers: 1, pagesPerBrowser: 2, queueTimeoutMs: 60_000, ...settings } });
  await app.ready();
  const keys = new Map<PlanName, Record<string, string>>();
  const headers = async (plan: PlanName = "PRO") => {
    if (!keys.has(plan)) keys.set(plan, (await platform.subscribe("pdf-generation", plan)).headers);
    return keys.get(plan)!;
  };
  return {
    app,
    platform,
    headers,
    post: async (path, payload, plan = "MEGA", query = "") =>
      app.inject({ method: "POST", url: `${path}${query}`, headers: await headers(plan), payload: payload as object }),
    async close() {
      await app.close();
      await platform.close();
    },
  };
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
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
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
