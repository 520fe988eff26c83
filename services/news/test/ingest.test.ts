import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { runIngestion } from "@apiplat/catalogue";
import { createOutboundClient } from "@apiplat/outbound-guard";
import { startService, type StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feedSource } from "../src/ingest/feeds.js";
import { abcSource, huffPostSource } from "../src/ingest/datasets.js";
import service from "../src/service.js";

/** A dataset folder of our own: a few real HuffPost lines, plus broken ones. */
const datasetsDir = mkdtempSync(path.join(tmpdir(), "news-datasets-"));
mkdirSync(path.join(datasetsDir, "news"));
const good = [
  {
    link: "https://www.huffpost.com/entry/a_n_1",
    headline: "Coffee prices climb again",
    category: "FOOD & DRINK",
    short_description: "Beans cost more.",
    authors: "A. Writer",
    date: "2022-09-20",
  },
  {
    link: "https://www.huffpost.com/entry/b_n_2",
    headline: "Senate passes the budget",
    category: "POLITICS",
    short_description: "",
    authors: "",
    date: "2022-09-21",
  },
];
writeFileSync(
  path.join(datasetsDir, "news/News_Category_Dataset_v3.json"),
  [
    JSON.stringify(good[0]),
    "{this line is not json",
    JSON.stringify({ ...good[1], headline: "" }),
    JSON.stringify({ ...good[1], date: "2022-02-30" }),
    JSON.stringify(good[1]),
  ].join("\n"),
);
writeFileSync(path.join(datasetsDir, "news/abcnews_au_headlines_sample.csv"), "publish_date,headline_text\n20030219,rain eases drought fears\n");
writeFileSync(
  path.join(datasetsDir, "news/india_news_headlines_sample.csv"),
  "publish_date,headline_category,headline_text\n20010101,unknown,monsoon arrives early\n",
);

const RSS = `<?xml version="1.0"?><rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>Local Wire</title>
<item><title>Coffee harvest doubles</title><link>https://local.example/news/coffee?utm_source=rss</link><description>&lt;p&gt;Growers &lt;b&gt;celebrate&lt;/b&gt;.&lt;/p&gt;</description><dc:creator>Jo Reporter</dc:creator><pubDate>Tue, 20 Sep 2022 10:00:00 GMT</pubDate><media:content url="https://local.example/img/coffee.jpg" medium="image"/></item>
<item><title>No link here</title><description>dropped</description></item>
</channel></rss>`;
const ATOM = `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Local Atom</title>
<entry><title>Coffee harvest doubles</title><link rel="alternate" href="https://www.local.example/news/coffee/"/><updated>2022-09-20T11:00:00Z</updated><author><name>Jo Reporter</name></author><summary>Growers celebrate.</summary></entry>
<entry><title>Tea exports fall</title><link href="https://local.example/news/tea"/><published>2022-09-21T08:30:00Z</published><summary>Leaves are scarce.</summary></entry>
</feed>`;

let feedServer: Server;
let feedBase = "";
const requests: { path: string; ifNoneMatch?: string }[] = [];

beforeAll(async () => {
  feedServer = createServer((req, res) => {
    requests.push({ path: req.url ?? "", ifNoneMatch: req.headers["if-none-match"] as string | undefined });
    const body = req.url === "/rss.xml" ? RSS : req.url === "/atom.xml" ? ATOM : null;
    if (!body) return res.writeHead(404).end();
    const etag = `"${req.url}-v1"`;
    if (req.headers["if-none-match"] === etag) return res.writeHead(304, { etag }).end();
    res.writeHead(200, { "content-type": "application/xml", etag }).end(body);
  });
  await new Promise<void>((resolve) => feedServer.listen(0, "127.0.0.1", resolve));
  feedBase = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => feedServer.close(() => resolve())));

describe("dataset ingestion", () => {
  let started: StartedService;
  beforeAll(async () => {
    started = await startService(service, { settings: { autoLoad: false, feeds: [] }, env: { DATASETS_DIR: datasetsDir } });
  });
  afterAll(() => started.close());

  it("reports and skips malformed records, and a re-run changes nothing", async () => {
    const context = { datasetsDir, now: () => new Date() };
    const first = await runIngestion(started.platform.deps.db, huffPostSource(), context);
    expect(first).toMatchObject({ status: "succeeded", rows_read: 5, rows_skipped: 3, inserted: 2, updated: 0 });
    expect(first.skipped).toEqual([
      { line: 2, reason: "the line is not valid JSON" },
      { line: 3, reason: "headline is missing" },
      { line: 4, reason: 'date "2022-02-30" is not a YYYY-MM-DD day' },
    ]);
    const again = await runIngestion(started.platform.deps.db, huffPostSource(), context);
    expect(again).toMatchObject({ status: "succeeded", inserted: 0, updated: 0, unchanged: 2, rows_skipped: 3 });
  });

  it("records a run that cannot read its file as failed, without throwing", async () => {
    const summary = await runIngestion(started.platform.deps.db, huffPostSource(), { datasetsDir: path.join(datasetsDir, "missing"), now: () => new Date() });
    expect(summary.status).toBe("failed");
    const { headers } = await started.subscribe("PRO");
    const res = await started.app.inject({ method: "GET", url: "/sources", headers });
    const huffpost = res.json().data.datasets[0];
    expect(huffpost).toMatchObject({ runs: 3, last_run: { status: "failed", rows_read: 0 } });
  });
});

describe("first start", () => {
  it("loads an empty catalogue in the background and is ready once loaded", async () => {
    const started = await startService(service, { settings: { autoLoad: true, feeds: [] }, env: { DATASETS_DIR: datasetsDir } });
    try {
      let ready = 503;
      for (let i = 0; i < 100 && ready !== 200; i++) {
        ready = (await started.app.inject({ method: "GET", url: "/ready" })).statusCode;
        if (ready !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(ready).toBe(200);
      const { headers } = await started.subscribe("PRO");
      const res = await started.app.inject({ method: "GET", url: "/search", headers });
      // 2 HuffPost articles (the broken lines skipped), 1 ABC and 1 Times of India headline; the UCI file is absent here.
      expect(res.json().data.total_results).toBe(4);
      // Top headlines are the day up to the newest article: the 2022-09-21 HuffPost one alone.
      const top = (await started.app.inject({ method: "GET", url: "/top-headlines", headers })).json().data;
      expect(top).toMatchObject({ total_results: 1, selection: { window_end: "2022-09-21T00:00:00.000Z", max_results: 100 } });
    } finally {
      await started.close();
    }
  });
});

describe("RSS and Atom feeds", () => {
  it("ingests both formats through the guard, deduplicates by canonical URL and sends conditional GETs", async () => {
    const started = await startService(service, { settings: { autoLoad: false, feeds: [] }, env: { DATASETS_DIR: datasetsDir } });
    try {
      const source = feedSource({
        feeds: [
          { url: `${feedBase}/rss.xml`, name: "Local Wire", country: "nz", language: "en", category: "business" },
          { url: `${feedBase}/atom.xml`, name: "Local Wire", country: "nz", language: "en", category: "business" },
        ],
        outbound: createOutboundClient({ allowCidrs: ["127.0.0.0/8"] }),
      });
      const now = () => new Date("2022-09-22T00:00:00Z");
      const first = await runIngestion(started.platform.deps.db, source, { datasetsDir, now });
      expect(first).toMatchObject({ status: "succeeded", rows_read: 4, rows_skipped: 1, inserted: 2, updated: 0, unchanged: 1 });
      expect(first.skipped[0].reason).toContain("has no http(s) link");

      const { headers } = await started.subscribe("PRO");
      const res = await started.app.inject({ method: "GET", url: "/search?q=coffee%20harvest&country=nz", headers });
      const articles = res.json().data.articles;
      expect(articles).toHaveLength(1);
      expect(articles[0]).toMatchObject({
        source: { id: "local-wire", name: "Local Wire" },
        title: "Coffee harvest doubles",
        // One article per canonical URL; its url is the link as the later of the two feeds published it.
        url: "https://www.local.example/news/coffee/",
        author: "Jo Reporter",
        category: "business",
        country: "nz",
        language: "en",
      });

      requests.length = 0;
      const second = await runIngestion(started.platform.deps.db, source, { datasetsDir, now });
      expect(second).toMatchObject({ rows_read: 0, inserted: 0 });
      expect(requests.map((r) => r.ifNoneMatch)).toEqual(['"/rss.xml-v1"', '"/atom.xml-v1"']);
    } finally {
      await started.close();
    }
  });

  it("refuses a feed the outbound guard does not allow, as a skipped record", async () => {
    const started = await startService(service, { settings: { autoLoad: false, feeds: [] }, env: { DATASETS_DIR: datasetsDir } });
    try {
      const source = feedSource({
        feeds: [{ url: `${feedBase}/rss.xml`, name: "Local Wire", country: null, language: "en", category: null }],
        outbound: createOutboundClient({ allowCidrs: [] }),
      });
      const summary = await runIngestion(started.platform.deps.db, source, { datasetsDir, now: () => new Date() });
      expect(summary).toMatchObject({ status: "succeeded", rows_skipped: 1, inserted: 0 });
      expect(summary.skipped[0].reason).toContain("could not be fetched");
    } finally {
      await started.close();
    }
  });
});

describe("top headlines of a busy day", () => {
  it("are at most 100, the newest first, across pages", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "news-busy-"));
    mkdirSync(path.join(dir, "news"));
    const lines = ["publish_date,headline_text", ...Array.from({ length: 150 }, (_, i) => `20030220,headline number ${i}`), "20030219,the day before"];
    writeFileSync(path.join(dir, "news/abcnews_au_headlines_sample.csv"), lines.join("\n"));
    const started = await startService(service, { settings: { autoLoad: false, feeds: [] }, env: { DATASETS_DIR: dir } });
    try {
      expect((await runIngestion(started.platform.deps.db, abcSource(), { datasetsDir: dir, now: () => new Date() })).inserted).toBe(151);
      const { headers } = await started.subscribe("PRO");
      const get = async (url: string) => (await started.app.inject({ method: "GET", url, headers })).json().data;
      const first = await get("/top-headlines?country=au&limit=60");
      expect(first.total_results).toBe(100);
      const second = await get(`/top-headlines?country=au&limit=60&cursor=${first.next_cursor}`);
      expect(second.articles).toHaveLength(40);
      expect(second.next_cursor).toBeNull();
      const shown = [...first.articles, ...second.articles] as { title: string; published_at: string }[];
      expect(new Set(shown.map((a) => a.title)).size).toBe(100);
      expect(shown.every((a) => a.published_at === "2003-02-20T00:00:00.000Z")).toBe(true);
      expect((await get("/search?country=au")).total_results).toBe(151);
    } finally {
      await started.close();
    }
  });
});
