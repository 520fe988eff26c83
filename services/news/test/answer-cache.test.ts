/**
 * The catalogue's answer cache (packages/catalogue/src/answer-cache.ts), over HTTP: the same question asked again is
 * answered from memory after the platform has authenticated, counted and validated it, and a change to the catalogue
 * in this process is seen at once.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startService, type StartedService } from "@apiplat/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import service from "../src/service.js";
import { datasetsDir, startNews } from "./helpers.js";

let news: StartedService;
let headers: Record<string, string>;

beforeAll(async () => {
  news = await startNews();
  headers = (await news.subscribe("PRO")).headers;
});
afterAll(() => news?.close());

const get = (url: string, extra: Record<string, string> = {}, app = news.app, as = headers) => app.inject({ method: "GET", url, headers: { ...as, ...extra } });

describe("the answer cache", () => {
  it("answers the same question again from memory, the same body, still counted against the quota", async () => {
    const first = await get("/search?q=coffee&limit=3");
    expect(first.statusCode).toBe(200);
    expect(first.headers["cache-status"]).toBe("apiplat-catalogue; fwd=uri-miss; stored");
    expect(first.headers.age).toBeUndefined();

    const again = await get("/search?q=coffee&limit=3");
    expect(again.statusCode).toBe(200);
    expect(again.headers["cache-status"]).toBe("apiplat-catalogue; hit");
    expect(again.headers.age).toBe("0");
    expect(again.body).toBe(first.body);
    expect(again.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(Number(again.headers["x-ratelimit-requests-remaining"])).toBe(Number(first.headers["x-ratelimit-requests-remaining"]) - 1);
  });

  it("keys on the query string: another question is asked of the catalogue", async () => {
    await get("/search?q=coffee&limit=4");
    const other = await get("/search?q=coffee&limit=5");
    expect(other.headers["cache-status"]).toBe("apiplat-catalogue; fwd=uri-miss; stored");
    expect(other.json().data.articles).toHaveLength(5);
  });

  it("asks the catalogue again for Cache-Control: no-cache, and keeps the fresh answer", async () => {
    await get("/top-headlines?country=us");
    const fresh = await get("/top-headlines?country=us", { "cache-control": "no-cache" });
    expect(fresh.headers["cache-status"]).toBe("apiplat-catalogue; fwd=request; stored");
    expect((await get("/top-headlines?country=us")).headers["cache-status"]).toBe("apiplat-catalogue; hit");
  });

  it("never keeps an error, and never answers a caller the platform refuses", async () => {
    // Validation runs before the cache is consulted: a bad request is refused every time, never looked up.
    for (let i = 0; i < 2; i++) {
      const bad = await get("/search?q=coffee&limit=101");
      expect(bad.statusCode).toBe(400);
      expect(bad.headers["cache-status"]).toBeUndefined();
    }
    // A refusal of the handler's own is asked again each time and not kept.
    for (let i = 0; i < 2; i++) {
      const refused = await get("/search?sort_by=relevancy");
      expect(refused.statusCode).toBe(400);
      expect(refused.headers["cache-status"]).toBe("apiplat-catalogue; fwd=uri-miss");
    }
    await get("/search?q=tea&limit=2");
    const anonymous = await news.app.inject({ method: "GET", url: "/search?q=tea&limit=2" });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers["cache-status"]).toBeUndefined();
  });
});

describe("its settings and its freshness", () => {
  let started: StartedService | undefined;
  let feedServer: Server | undefined;
  afterEach(async () => {
    await started?.close();
    await new Promise((resolve) => (feedServer ? feedServer.close(resolve) : resolve(undefined)));
    started = feedServer = undefined;
  });

  it("forgets an answer after CATALOGUE_CACHE_SECONDS", async () => {
    started = await startService(service, { settings: { autoLoad: false, feeds: [] }, env: { DATASETS_DIR: datasetsDir, CATALOGUE_CACHE_SECONDS: "1" } });
    const as = (await started.subscribe("PRO")).headers;
    await get("/sources", {}, started.app, as);
    expect((await get("/sources", {}, started.app, as)).headers["cache-status"]).toBe("apiplat-catalogue; hit");
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await get("/sources", {}, started.app, as)).headers["cache-status"]).toBe("apiplat-catalogue; fwd=uri-miss; stored");
  });

  it("is off with CATALOGUE_CACHE_SECONDS=0", async () => {
    started = await startService(service, { settings: { autoLoad: false, feeds: [] }, env: { DATASETS_DIR: datasetsDir, CATALOGUE_CACHE_SECONDS: "0" } });
    const as = (await started.subscribe("PRO")).headers;
    await get("/sources", {}, started.app, as);
    expect((await get("/sources", {}, started.app, as)).headers["cache-status"]).toBeUndefined();
  });

  it("is cleared when this process ingests: a fetched feed's article is found at once", async () => {
    let items = "";
    feedServer = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/rss+xml" });
      res.end(`<?xml version="1.0"?><rss version="2.0"><channel><title>Local Wire</title><link>http://127.0.0.1/</link><description>d</description>${items}</channel></rss>`);
    });
    await new Promise<void>((resolve) => feedServer!.listen(0, "127.0.0.1", resolve));
    const feedUrl = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/rss.xml`;
    started = await startService(service, {
      settings: { autoLoad: false, feedIntervalMs: 200, feeds: [{ url: feedUrl, name: "Local Wire", country: "nz", language: "en", category: "business" }] },
      env: { DATASETS_DIR: datasetsDir, OUTBOUND_ALLOW_CIDRS: "127.0.0.0/8" },
    });
    const as = (await started.subscribe("PRO")).headers;
    const search = () => get("/search?q=zyxwabbit", {}, started!.app, as);

    const before = await search();
    expect(before.json().data.articles).toEqual([]);
    expect((await search()).headers["cache-status"]).toBe("apiplat-catalogue; hit");

    items = `<item><title>The zyxwabbit harvest</title><link>http://127.0.0.1/zyxwabbit</link><pubDate>Tue, 24 Nov 2026 10:00:00 GMT</pubDate><description>A first.</description></item>`;
    const deadline = Date.now() + 10_000;
    let found = before;
    while (found.json().data.articles.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      found = await search();
    }
    expect(found.json().data.articles.map((a: { title: string }) => a.title)).toEqual(["The zyxwabbit harvest"]);
  });
});
