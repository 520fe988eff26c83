import type { IncomingMessage, ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { html, pdfBytes, TEST_SETTINGS, startSite, type TestService, type TestSite, whenBrowsersWarm } from "./helpers.js";
import { startService } from "@apiplat/testing";
import pdfService from "../src/service.js";
import { pageTexts, wordBoxes } from "./pdf-tools.js";

let service: TestService;
let locked: TestService;
let site: TestSite;

const page = (body: string) => (_req: IncomingMessage, res: ServerResponse) =>
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html(body));

beforeAll(async () => {
  // Loopback is reachable only for this instance, as OUTBOUND_ALLOW_CIDRS allows in tests and private deployments.
  service = await whenBrowsersWarm(await startService(pdfService, { env: { OUTBOUND_ALLOW_CIDRS: "127.0.0.0/8" }, settings: TEST_SETTINGS }));
  locked = await whenBrowsersWarm(await startService(pdfService, { settings: TEST_SETTINGS }));
  site = await startSite({
    "/static": page("<h1>Static page</h1><p>Served over HTTP</p>"),
    "/scripted": page(
      '<div id="app">loading</div><script>setTimeout(() => { document.getElementById("app").innerHTML = "<p id=\\"ready\\">Rendered by script</p>"; }, 300)</script>',
    ),
    "/never": page('<div id="app">waiting forever</div>'),
    "/leaky": page('<p>Leaky page</p><img src="http://169.254.169.254/latest/meta-data/iam">'),
    "/to-metadata": (_req, res) => res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end(),
    "/to-static": (_req, res) => res.writeHead(302, { location: "/static" }).end(),
    "/compressed": (_req, res) =>
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-encoding": "gzip" }).end(gzipSync(html("<p>Compressed page</p>"))),
    "/styled": page('<link rel="stylesheet" href="/style.css"><p class="big">Styled page</p>'),
    "/style.css": (_req, res) => res.writeHead(200, { "content-type": "text/css" }).end(".big { font-size: 40pt }"),
    "/hang": () => undefined,
    "/gone": (_req, res) => res.writeHead(410, { "content-type": "text/html" }).end("<p>Gone</p>"),
  });
});
afterAll(async () => {
  await service?.close();
  await locked?.close();
  await site?.close();
});

/** POST /from-url as a PRO subscriber: `render` for the PDF's bytes, `ask` for an answer in JSON. */
const render = (target: TestService, payload: Record<string, unknown>, query = "") => target.post("/from-url", payload, "PRO", query);
const ask = (target: TestService, payload: Record<string, unknown>, query = "") => target.ask("/from-url", payload, "PRO", query);

describe("POST /from-url", () => {
  test("renders a page fetched over HTTP", async () => {
    const res = await render(service, { url: `${site.origin}/static`, wait_until: "load" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    const text = pageTexts(pdfBytes(res))[0];
    expect(text).toContain("Static page");
    expect(text).toContain("Served over HTTP");
  });

  test("follows an allowed redirect", async () => {
    const res = await render(service, { url: `${site.origin}/to-static`, wait_until: "load" });
    expect(res.statusCode).toBe(200);
    expect(pageTexts(pdfBytes(res))[0]).toContain("Static page");
  });

  test("sub-resources are fetched (through the guard) and applied", async () => {
    const res = await render(service, { url: `${site.origin}/styled`, wait_until: "load" });
    expect(site.hits.get("/style.css")).toBe(1);
    const word = wordBoxes(pdfBytes(res)).find((w) => w.word === "Styled")!;
    expect(word.yMax - word.yMin).toBeGreaterThan(35);
  });

  test("a gzip-encoded page is decoded before rendering", async () => {
    const res = await render(service, { url: `${site.origin}/compressed`, wait_until: "load" });
    expect(res.statusCode).toBe(200);
    expect(pageTexts(pdfBytes(res))[0]).toContain("Compressed page");
  });

  test("wait_for waits for content a script renders", async () => {
    const res = await render(service, { url: `${site.origin}/scripted`, wait_until: "domcontentloaded", wait_for: "#ready" });
    expect(res.statusCode).toBe(200);
    expect(pageTexts(pdfBytes(res))[0]).toContain("Rendered by script");
  });

  test("javascript: false renders the page as served, scripts not run", async () => {
    const res = await render(service, { url: `${site.origin}/scripted`, javascript: false, delay_ms: 500 });
    const text = pageTexts(pdfBytes(res))[0];
    expect(text).toContain("loading");
    expect(text).not.toContain("Rendered by script");
  });

  test("a wait_for selector that never appears ends in a clean 504 within the timeout", async () => {
    const started = Date.now();
    // The budget leaves navigation seconds to spare on a busy machine: a wait that starts late still ends in wait_for's
    // own timeout, not the navigation's.
    const res = await ask(service, { url: `${site.origin}/never`, wait_until: "domcontentloaded", wait_for: "#ready", timeout_ms: 6000 });
    expect(res.status).toBe(504);
    expect(res.error).toMatchObject({ code: "UPSTREAM_TIMEOUT", details: [{ field: "wait_for", issue: "never appeared on the page" }] });
    expect(Date.now() - started).toBeLessThan(12_000);
    // The pool is still healthy after the timed-out job.
    expect((await render(service, { url: `${site.origin}/static`, wait_until: "load" })).statusCode).toBe(200);
  });

  test("a server that never answers is a 504 within the timeout", async () => {
    const started = Date.now();
    const res = await ask(service, { url: `${site.origin}/hang`, wait_until: "load", timeout_ms: 2000 });
    expect(res.status).toBe(504);
    expect(res.error.code).toBe("UPSTREAM_TIMEOUT");
    expect(Date.now() - started).toBeLessThan(8000);
  });

  test("a page answering 410 is a 502 naming the status", async () => {
    const res = await ask(service, { url: `${site.origin}/gone`, wait_until: "load" });
    expect(res.status).toBe(502);
    expect(res.error.code).toBe("UPSTREAM_ERROR");
    expect(res.error.message).toContain("HTTP 410");
  });
});

describe("SSRF protection", () => {
  test("loopback is refused when the deployment does not allow it", async () => {
    const before = site.hits.get("/static") ?? 0;
    const res = await ask(locked, { url: `${site.origin}/static` });
    expect(res.status).toBe(400);
    expect(res.error).toMatchObject({
      code: "VALIDATION_ERROR",
      details: [{ field: "url", issue: "must not point to a private, loopback, link-local or metadata address" }],
    });
    expect(site.hits.get("/static") ?? 0).toBe(before);
  });

  test("the cloud metadata address is refused", async () => {
    const res = await ask(service, { url: "http://169.254.169.254/latest/meta-data/" });
    expect(res.status).toBe(400);
    expect(res.error.details?.[0].field).toBe("url");
  });

  test("non-http schemes are refused", async () => {
    const res = await ask(service, { url: "file:///etc/passwd" });
    expect(res.status).toBe(400);
    expect(res.error.details).toEqual([{ field: "url", issue: "must use http or https" }]);
  });

  test("a redirect to the metadata address is refused", async () => {
    const res = await ask(service, { url: `${site.origin}/to-metadata` });
    expect(res.status).toBe(400);
    expect(res.error.code).toBe("VALIDATION_ERROR");
    expect(res.error.message).toMatch(/refused: .*private, loopback, link-local or metadata/);
  });

  test("a sub-resource pointing at the metadata address is refused and reported", async () => {
    const res = await ask(service, { url: `${site.origin}/leaky`, wait_until: "load" }, "?response=json");
    expect(res.status).toBe(200);
    const [blocked] = res.data.blocked_requests;
    expect(blocked.url).toBe("http://169.254.169.254/latest/meta-data/iam");
    expect(blocked.reason).toMatch(/private, loopback, link-local or metadata/);
  });
});

describe("validation", () => {
  test("delay_ms accepts 10000 at most", async () => {
    const res = await ask(service, { url: `${site.origin}/static`, delay_ms: 10001 });
    expect(res.status).toBe(400);
    expect(res.error.details).toEqual([{ field: "delay_ms", issue: "must be at most 10000" }]);
  });

  test("a wait_for the browser cannot parse is a 400 naming wait_for at once, before the page is fetched", async () => {
    for (const selector of ["###", "div >", "p:first"]) {
      const before = site.hits.get("/static") ?? 0;
      const started = Date.now();
      const res = await ask(service, { url: `${site.origin}/static`, wait_for: selector });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(res.status).toBe(400);
      expect(res.error).toEqual({
        code: "VALIDATION_ERROR",
        message: `wait_for ${JSON.stringify(selector)} is not a valid CSS selector; the browser cannot parse it.`,
        details: [{ field: "wait_for", issue: "must be a valid CSS selector" }],
      });
      expect(site.hits.get("/static") ?? 0).toBe(before);
    }
    // Selectors only a recent CSS parser knows are the browser's to judge, and pass.
    const modern = await render(service, { url: `${site.origin}/static`, wait_for: "body:has(> *):is(body, main)", wait_until: "load" });
    expect(modern.statusCode).toBe(200);
  });

  test("wait_until must be one of the browser's load events", async () => {
    const res = await ask(service, { url: `${site.origin}/static`, wait_until: "idle" });
    expect(res.status).toBe(400);
    expect(res.error.details?.[0]).toEqual({ field: "wait_until", issue: "must be one of: load, domcontentloaded, networkidle0, networkidle2" });
  });

  test("url is required and bounded to 2048 characters", async () => {
    const missing = await ask(service, {});
    expect(missing.error.details).toEqual([{ field: "url", issue: "is required" }]);
    const long = await ask(service, { url: `${site.origin}/${"a".repeat(2049)}` });
    expect(long.error.details).toEqual([{ field: "url", issue: "must be at most 2048 characters long" }]);
  });
});
