/**
 * The crawler against pages served on 127.0.0.1 by this test: the outbound guard allows loopback only because the
 * test says so (allowCidrs), and names resolve through the test's own resolver (no DNS query leaves the machine).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { runIngestion } from "@apiplat/catalogue";
import { createOutboundClient } from "@apiplat/outbound-guard";
import { SSRF_TARGETS, startService, startSsrfTestbed, type StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crawlSource, type CrawlOptions } from "../src/ingest/crawler.js";
import service from "../src/service.js";

const ROBOTS = "User-agent: otherbot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\nAllow: /private/open\nCrawl-delay: 0.2\n";
const page = (title: string, body: string, extra = "") =>
  `<!doctype html><html lang="en-GB"><head><title>${title}</title>${extra}</head><body><nav><a href="/">Home</a></nav><article><h1>${title}</h1>${body}</article><footer>Footer text</footer></body></html>`;
const nested = (title: string, divs: number) =>
  `<html><head><title>${title}</title></head><body>${"<div>".repeat(divs)}<p>${title}: a page whose paragraph sits deep inside nested blocks, about pulling short shots of espresso.</p>${"</div>".repeat(divs)}</body></html>`;
const PAGES: Record<string, { type: string; body: string }> = {
  "/": {
    type: "text/html; charset=utf-8",
    body: page(
      "Home of the espresso guide",
      `<p>This guide explains how espresso is made at home, from the grinder to the cup, with notes on every step of the process and the equipment it needs.</p>
       <p><a href="/about">About tamping</a> <a href="/private/secret">Secret</a> <a href="/private/open">Open</a> <a href="/notes.txt">Notes</a>
       <a href="/hidden">Hidden</a> <a href="/big">Big</a> <a href="http://elsewhere.test:PORT/away">Elsewhere</a> <a href="/about#again">Again</a></p>`,
    ),
  },
  "/about": {
    type: "text/html",
    body: page(
      "Tamping technique",
      "<p>Tamping compresses the coffee grounds in the portafilter so that water flows evenly through the puck; a level tamp with about fifteen kilograms of force is the usual advice of baristas.</p>",
    ),
  },
  "/private/secret": { type: "text/html", body: page("Secret", "<p>Never to be fetched.</p>") },
  "/private/open": {
    type: "text/html",
    body: page("Open corner", "<p>An allowed page inside a disallowed folder, about crema and its colour after extraction with fresh beans.</p>"),
  },
  "/notes.txt": { type: "text/plain", body: "plain notes" },
  "/hidden": {
    type: "text/html",
    body: page("Hidden", "<p>This page asks robots not to index it, though its links may be followed.</p>", '<meta name="robots" content="noindex">'),
  },
  "/big": { type: "text/html", body: page("Big", `<p>${"long text ".repeat(2000)}</p>`) },
  // <html>, <body>, the <div>s and the <p>: the paragraph at depth 256 and 257.
  "/nested-256": { type: "text/html", body: nested("Nested ristretto", 253) },
  "/nested-257": { type: "text/html", body: nested("Nested lungo", 254) },
};

let server: Server;
let port = 0;
const requests: { path: string; at: number; agent: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push({ path: req.url ?? "", at: performance.now(), agent: String(req.headers["user-agent"]) });
    if (req.url === "/robots.txt") return res.writeHead(200, { "content-type": "text/plain" }).end(ROBOTS);
    const found = PAGES[req.url ?? ""];
    if (!found) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": found.type, "last-modified": "Tue, 20 Sep 2022 10:00:00 GMT" }).end(found.body.replace("PORT", String(port)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The test's resolver: the two test hosts are this machine; nothing else resolves. */
async function resolve(hostname: string) {
  if (hostname === "site.test" || hostname === "elsewhere.test") return [{ address: "127.0.0.1", family: 4 }];
  throw new Error(`${hostname} does not resolve in this test`);
}

function options(overrides: Partial<CrawlOptions> = {}): CrawlOptions {
  return {
    seeds: [`http://site.test:${port}/`],
    outbound: createOutboundClient({ allowCidrs: ["127.0.0.0/8"], resolve }),
    userAgent: "apiplat-search-bot/1.0",
    maxPages: 20,
    maxBytesPerPage: 8 * 1024,
    delayMs: 10,
    sameHost: true,
    ...overrides,
  };
}

let started: StartedService;
beforeAll(async () => {
  started = await startService(service, { settings: { autoLoad: false } });
});
afterAll(() => started.close());

describe("the crawler", () => {
  it("honours robots.txt, its Crawl-delay and the bounds, and indexes the main text of each page", async () => {
    requests.length = 0;
    const summary = await runIngestion(started.platform.deps.db, crawlSource(options()), { datasetsDir: "", now: () => new Date() });
    const base = `http://site.test:${port}`;
    expect(requests.map((r) => r.path)).toEqual(["/robots.txt", "/", "/about", "/private/open", "/notes.txt", "/hidden", "/big"]);
    expect(requests.every((r) => r.agent === "apiplat-search-bot/1.0")).toBe(true);
    // Crawl-delay: 0.2 asks for more than the configured 10 ms between two requests.
    for (let i = 1; i < requests.length; i++) expect(requests[i].at - requests[i - 1].at).toBeGreaterThanOrEqual(190);
    expect(summary).toMatchObject({ status: "succeeded", inserted: 3, rows_skipped: 4 });
    expect(summary.skipped.map((s) => s.reason)).toEqual([
      `${base}/private/secret: disallowed by robots.txt`,
      `${base}/notes.txt: is text/plain, not HTML`,
      `${base}/hidden: asks not to be indexed (meta robots noindex)`,
      `${base}/big: could not be fetched: The response from site.test:${port} is larger than 8192 bytes.`,
    ]);

    const { headers } = await started.subscribe("PRO");
    const res = await started.app.inject({ method: "GET", url: "/search?q=tamping", headers });
    const results = res.json().data.organic_results;
    expect(results[0]).toMatchObject({
      title: "Tamping technique",
      link: `${base}/about`,
      displayed_link: `http://site.test:${port} › about`,
      source: `site.test:${port}`,
      date: "2022-09-20T10:00:00.000Z",
    });
    expect(results[0].snippet).toContain("Tamping compresses the coffee grounds");
    expect(results[0].snippet).not.toContain("Footer text");
    // The page's lang="en-GB" is English: found with language=en, not with fr.
    expect((await started.app.inject({ method: "GET", url: "/search?q=portafilter&language=en", headers })).json().data.search_information.total_results).toBe(
      1,
    );
    expect((await started.app.inject({ method: "GET", url: "/search?q=portafilter&language=fr", headers })).json().data.search_information.total_results).toBe(
      0,
    );

    // A second crawl replaces the pages by URL instead of adding them again.
    const again = await runIngestion(started.platform.deps.db, crawlSource(options()), { datasetsDir: "", now: () => new Date() });
    expect(again).toMatchObject({ inserted: 0, updated: 0, unchanged: 3 });
  });

  it("indexes a page whose text is nested 256 deep and skips one nested 257 deep, saying why", async () => {
    const base = `http://site.test:${port}`;
    const summary = await runIngestion(started.platform.deps.db, crawlSource(options({ seeds: [`${base}/nested-256`, `${base}/nested-257`] })), {
      datasetsDir: "",
      now: () => new Date(),
    });
    expect(summary).toMatchObject({ status: "succeeded", inserted: 1, rows_skipped: 1 });
    expect(summary.skipped.map((s) => s.reason)).toEqual([`${base}/nested-257: has elements nested more than 256 deep, too deep to read`]);
  });

  it("stops at max pages, and follows other hosts only when told to", async () => {
    requests.length = 0;
    const bounded = await runIngestion(
      started.platform.deps.db,
      crawlSource(options({ maxPages: 2, seeds: [`http://site.test:${port}/`, `http://site.test:${port}/about`] })),
      { datasetsDir: "", now: () => new Date() },
    );
    expect(requests.map((r) => r.path)).toEqual(["/robots.txt", "/", "/about"]);
    expect(bounded.rows_read).toBe(2);

    requests.length = 0;
    const anyHost = await runIngestion(started.platform.deps.db, crawlSource(options({ sameHost: false, maxPages: 20 })), {
      datasetsDir: "",
      now: () => new Date(),
    });
    expect(anyHost.skipped.at(-1)?.reason).toBe(`http://elsewhere.test:${port}/away: answered 404`);
    // elsewhere.test is another origin: its own robots.txt first, then the page.
    expect(requests.map((r) => r.path).slice(-2)).toEqual(["/robots.txt", "/away"]);
  });

  it("fetches nothing the outbound guard refuses", async () => {
    requests.length = 0;
    const guarded = crawlSource(
      options({
        outbound: createOutboundClient({ allowCidrs: [], resolve }),
        seeds: [`http://site.test:${port}/`, `http://127.0.0.1:${port}/`, "ftp://site.test/"],
      }),
    );
    const summary = await runIngestion(started.platform.deps.db, guarded, { datasetsDir: "", now: () => new Date() });
    expect(requests).toEqual([]);
    expect(summary).toMatchObject({ status: "succeeded", inserted: 0, rows_skipped: 3 });
    expect(summary.skipped.map((s) => s.reason)).toEqual([
      'seed "ftp://site.test/" is not an http(s) URL',
      `http://site.test:${port}/: robots.txt could not be fetched: url must not resolve to a private, loopback, link-local or metadata address.`,
      `http://127.0.0.1:${port}/: robots.txt could not be fetched: url must not point to a private, loopback, link-local or metadata address.`,
    ]);
  });

  it("refuses every hostile URL of the shared SSRF list as a seed, and connects to none of them", async () => {
    // No endpoint takes a URL (the crawl is a command), so the security suite has nothing to drive: the list runs here.
    const bed = await startSsrfTestbed();
    try {
      const outbound = createOutboundClient({ allowCidrs: bed.allowCidrs.split(","), resolve });
      for (const target of SSRF_TARGETS) {
        bed.reset();
        const summary = await runIngestion(started.platform.deps.db, crawlSource(options({ outbound, seeds: [target.url(bed)], delayMs: 0 })), {
          datasetsDir: "",
          now: () => new Date(),
        });
        expect(summary.inserted, target.name).toBe(0);
        expect(summary.rows_skipped, target.name).toBeGreaterThanOrEqual(1);
        expect(bed.canary.connections, target.name).toBe(0);
      }
      expect(bed.canary.total).toBe(0);
    } finally {
      await bed.close();
    }
  });
});
