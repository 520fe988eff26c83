/**
 * The catalogue's answer cache (packages/catalogue/src/answer-cache.ts), over HTTP: the same question asked again is
 * answered from memory after the platform has authenticated, counted and validated it, and a change to the catalogue
 * in this process is seen at once.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { RecentQuestions } from "@apiplat/catalogue";
import { startService, type StartedService } from "@apiplat/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import service from "../src/service.js";
import { datasetsDir, startNews } from "./helpers.js";

let news: StartedService;
let headers: Record<string, string>;

beforeAll(async () => {
  news = await startNews();
  headers = (await news.subscribe("PRO")).headers;
  // The runs startNews made reach the catalogue's version watch (a notice, else the one-second poll), which clears the cache once.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
});
afterAll(() => news?.close());

const get = (url: string, extra: Record<string, string> = {}, app = news.app, as = headers) => app.inject({ method: "GET", url, headers: { ...as, ...extra } });

describe("the answer cache", () => {
  it("keeps an answer from the second time its question is asked, and answers it from memory after that, still counted", async () => {
    const first = await get("/search?q=coffee&limit=3");
    expect(first.statusCode).toBe(200);
    // Asked once: nothing kept (most questions are never asked again).
    expect(first.headers["cache-status"]).toBe("apiplat-catalogue; fwd=uri-miss");
    expect(first.headers.age).toBeUndefined();
    const storedBefore = Date.now();
    const second = await get("/search?q=coffee&limit=3");
    expect(second.headers["cache-status"]).toBe("apiplat-catalogue; fwd=uri-miss; stored");
    expect(second.json().data).toEqual(first.json().data);

    const again = await get("/search?q=coffee&limit=3");
    expect(again.statusCode).toBe(200);
    expect(again.headers["cache-status"]).toBe("apiplat-catalogue; hit");
    // Whole seconds since it was stored: 0 unless a loaded machine took a second between the two requests.
    expect(Number(again.headers.age)).toBeLessThanOrEqual(Math.floor((Date.now() - storedBefore) / 1000));
    expect(again.body).toBe(second.body);
    expect(again.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(Number(again.headers["x-ratelimit-requests-remaining"])).toBe(Number(first.headers["x-ratelimit-requests-remaining"]) - 2);
  });

  it("keys on the query string: another question is asked of the catalogue", async () => {
    await get("/search?q=coffee&limit=4");
    await get("/search?q=coffee&limit=4");
    const other = await get("/search?q=coffee&limit=5");
    expect(other.headers["cache-status"]).toBe("apiplat-catalogue; fwd=uri-miss");
    expect(other.json().data.articles).toHaveLength(5);
  });

  it("asks the catalogue again for Cache-Control: no-cache, and keeps the fresh answer", async () => {
    await get("/top-headlines?country=us");
    const fresh = await get("/top-headlines?country=us", { "cache-control": "no-cache" });
    expect(fresh.headers["cache-status"]).toBe("apiplat-catalogue; fwd=request; stored");
    const kept = await get("/top-headlines?country=us");
    expect(kept.headers["cache-status"]).toBe("apiplat-catalogue; hit");
    // A fresh answer is kept already: another no-cache answer (the same but for its timestamp) leaves it as it is.
    expect((await get("/top-headlines?country=us", { "cache-control": "no-cache" })).headers["cache-status"]).toBe("apiplat-catalogue; fwd=request");
    expect((await get("/top-headlines?country=us")).body).toBe(kept.body);
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

describe("RecentQuestions, the doorkeeper", () => {
  it("says a question was asked only from its second time, and starts afresh after its capacity", () => {
    const recent = new RecentQuestions(1_000);
    const questions = Array.from({ length: 1_000 }, (_, i) => `/search?q=word${i}&limit=10`);
    expect(questions.filter((q) => recent.askedBefore(q))).toEqual([]);
    expect(questions.every((q) => recent.askedBefore(q))).toBe(true);
    // Full: the next new question starts it afresh, so the first ones are new again.
    expect(recent.askedBefore("/search?q=another")).toBe(false);
    expect(recent.askedBefore(questions[0])).toBe(false);
  });

  it("takes few new questions for asked ones (a Bloom filter's false positives): under 2 % at its capacity", () => {
    const recent = new RecentQuestions();
    for (let i = 0; i < 65_535; i++) recent.askedBefore(`/search?q=asked${i}`);
    const taken = Array.from({ length: 10_000 }, (_, i) => `/search?q=new${i}`).filter((q) => recent.askedBefore(q)).length;
    expect(taken).toBeLessThan(200);
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
    await get("/sources", {}, started.app, as);
    expect((await get("/sources", {}, started.app, as)).headers["cache-status"]).toBe("apiplat-catalogue; hit");
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    // Expired, but still held: its fresh answer replaces it at once.
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
      res.end(
        `<?xml version="1.0"?><rss version="2.0"><channel><title>Local Wire</title><link>http://127.0.0.1/</link><description>d</description>${items}</channel></rss>`,
      );
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
    expect((await search()).headers["cache-status"]).toBe("apiplat-catalogue; fwd=uri-miss; stored");
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
