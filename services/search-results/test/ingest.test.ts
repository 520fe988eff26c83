import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runIngestion } from "@apiplat/catalogue";
import { loadConfig } from "@apiplat/config";
import { startService, type StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coffeeSource, filmsSource } from "../src/ingest/datasets.js";
import service, { ingestion } from "../src/service.js";

/** A dataset folder of our own: a few real-looking records of each format, plus broken ones. */
const datasetsDir = mkdtempSync(path.join(tmpdir(), "search-results-datasets-"));
mkdirSync(path.join(datasetsDir, "search-results/web"), { recursive: true });
mkdirSync(path.join(datasetsDir, "search-results/images"), { recursive: true });
mkdirSync(path.join(datasetsDir, "news"), { recursive: true });
const row = (attributes: Record<string, string>) =>
  `  <row ${Object.entries(attributes)
    .map(([k, v]) => `${k}="${v.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/\n/g, "&#xA;")}"`)
    .join(" ")} />`;
writeFileSync(
  path.join(datasetsDir, "search-results/web/stackexchange_coffee_Posts.xml"),
  [
    '\ufeff<?xml version="1.0" encoding="utf-8"?>',
    "<posts>",
    row({
      Id: "1",
      PostTypeId: "1",
      CreationDate: "2015-01-27T20:09:32.720",
      Body: "<p>How cold should the <b>beans</b> be kept?</p>\n",
      Title: "Storing beans & grounds",
      Tags: "<storage><whole-bean>",
    }),
    '  <row Id="2" PostTypeId="2" Body="unclosed quote />',
    row({ Id: "3", PostTypeId: "2", ParentId: "1", CreationDate: "2015-01-28T08:00:00.000", Body: "<p>Keep them in an airtight jar, away from light.</p>" }),
    row({ Id: "4", PostTypeId: "2", ParentId: "99", CreationDate: "2015-01-28T08:00:00.000", Body: "<p>An answer whose question is not in the file.</p>" }),
    row({ Id: "5", PostTypeId: "4", CreationDate: "2015-01-28T08:00:00.000", Body: "<p>A tag wiki excerpt.</p>" }),
    row({ Id: "6", PostTypeId: "1", CreationDate: "yesterday", Body: "<p>text</p>", Title: "A question with a broken date" }),
    "</posts>",
  ].join("\n"),
);
writeFileSync(
  path.join(datasetsDir, "search-results/web/wiki_movie_plots_sample.csv"),
  [
    "Release Year,Title,Origin/Ethnicity,Director,Cast,Genre,Wiki Page,Plot",
    '1903,The Great Train Robbery,American,Edwin S. Porter,,western,https://en.wikipedia.org/wiki/The_Great_Train_Robbery_(1903_film),"Bandits rob a train.[3] A posse follows."',
    "1904,No Link Here,American,Unknown,,unknown,,A plot without a page.",
  ].join("\n"),
);
writeFileSync(
  path.join(datasetsDir, "news/uci-news-aggregator.csv"),
  "ID,TITLE,URL,PUBLISHER,CATEGORY,STORY,HOSTNAME,TIMESTAMP\n1,Fed holds rates,http://www.latimes.com/a\\?track=rss,Los Angeles Times,b,x,www.latimes.com,1394470370698\n",
);

let started: StartedService;
beforeAll(async () => {
  started = await startService(service, { settings: { autoLoad: false }, env: { DATASETS_DIR: datasetsDir } });
});
afterAll(() => started.close());

/** The dataset sources, in the order the service lists them. */
const DATASETS = [
  "wikipedia-films",
  "wikipedia-people",
  "stackexchange-coffee",
  "stackexchange-beer",
  "coco-images",
  "coco-captions",
  "news-huffpost",
  "news-uci",
];

describe("dataset ingestion", () => {
  it("reports and skips malformed records, and a re-run writes nothing", async () => {
    const context = { datasetsDir, now: () => new Date() };
    const first = await runIngestion(started.platform.deps.db, coffeeSource(), context);
    // The answer is folded into its question's page: one page, written with the question and again with its answer.
    expect(first).toMatchObject({ status: "succeeded", rows_read: 6, rows_skipped: 3, inserted: 1, updated: 0, unchanged: 1 });
    expect(first.skipped).toEqual([
      { line: 4, reason: "the row is not a well-formed <row .../> element" },
      { line: 6, reason: "answer to question 99, which the file does not hold before it" },
      { line: 8, reason: 'CreationDate "yesterday" is not a date-time' },
    ]);
    const again = await runIngestion(started.platform.deps.db, coffeeSource(), context);
    expect(again).toMatchObject({ status: "succeeded", inserted: 0, updated: 0, unchanged: 2, rows_skipped: 3 });

    const films = await runIngestion(started.platform.deps.db, filmsSource(), context);
    expect(films).toMatchObject({ rows_read: 2, inserted: 1, rows_skipped: 1, skipped: [{ line: 2, reason: "Wiki Page is missing" }] });

    const { headers } = await started.subscribe("PRO");
    const res = await started.app.inject({ method: "GET", url: "/search?q=airtight", headers });
    expect(res.json().data.organic_results).toEqual([
      expect.objectContaining({
        position: 1,
        title: "Storing beans & grounds",
        link: "https://coffee.stackexchange.com/questions/1",
        snippet: expect.stringContaining("Keep them in an airtight jar, away from light"),
        snippet_highlighted_words: ["airtight"],
        date: "2015-01-27T20:09:32.720Z",
      }),
    ]);
    const film = await started.app.inject({ method: "GET", url: "/search?q=bandits", headers });
    expect(film.json().data.organic_results[0]).toMatchObject({ title: "The Great Train Robbery", snippet: "Bandits rob a train. A posse follows" });
  });

  it("shows every dataset with its attribution and latest run on /sources, and records a missing file as a failed run", async () => {
    const summary = await runIngestion(started.platform.deps.db, filmsSource(), { datasetsDir: path.join(datasetsDir, "missing"), now: () => new Date() });
    expect(summary.status).toBe("failed");
    const { headers } = await started.subscribe("PRO");
    const res = await started.app.inject({ method: "GET", url: "/sources", headers });
    const datasets = res.json().data.datasets as { name: string; licence: string; live: boolean; runs: number; last_run: { status: string } | null }[];
    expect(datasets.map((d) => d.name)).toEqual([...DATASETS, "crawl"]);
    expect(datasets[0]).toMatchObject({ licence: "CC BY-SA 4.0", runs: 2, last_run: { status: "failed" } });
    expect(datasets[2]).toMatchObject({ licence: "CC BY-SA 3.0", runs: 2, last_run: { status: "succeeded" } });
    expect(datasets[8]).toMatchObject({ live: true, runs: 0, last_run: null });
  });

  it("npm run ingest -- search-results --crawl gives the crawl source alone; without it, the datasets", () => {
    const config = loadConfig({ DATASETS_DIR: datasetsDir });
    expect(ingestion.sources({ config, options: {} }).map((s) => s.name)).toEqual(DATASETS);
    const crawl = ingestion.sources({ config, options: { crawl: ["https://example.org/"], "max-pages": ["5"] } });
    expect(crawl.map((s) => [s.name, s.live])).toEqual([["crawl", true]]);
    expect(() => ingestion.sources({ config, options: { crawl: [] } })).toThrow("--crawl needs at least one seed URL");
    expect(() => ingestion.sources({ config, options: { crawl: ["https://example.org/"], "max-pages": ["0"] } })).toThrow(
      "--max-pages must be a whole number of at least 1",
    );
  });
});

describe("first start", () => {
  it("loads an empty index in the background, answers 503 meanwhile, and is ready once loaded", async () => {
    const fresh = await startService(service, { settings: { autoLoad: true }, env: { DATASETS_DIR: datasetsDir } });
    try {
      const { headers } = await fresh.subscribe("PRO");
      const early = await fresh.app.inject({ method: "GET", url: "/search?q=bandits", headers });
      // The load reads eight files and writes them in transactions: it is never done by the first request.
      expect([early.statusCode, early.json().error.code]).toEqual([503, "UNAVAILABLE"]);
      let ready = 503;
      for (let i = 0; i < 300 && ready !== 200; i++) {
        ready = (await fresh.app.inject({ method: "GET", url: "/ready" })).statusCode;
        if (ready !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(ready).toBe(200);
      // 1 film, 1 coffee question with its answer; the other files are absent here. One UCI headline.
      expect(
        (await fresh.app.inject({ method: "GET", url: "/search?q=bandits OR airtight OR beans", headers })).json().data.search_information.total_results,
      ).toBe(2);
      expect((await fresh.app.inject({ method: "GET", url: "/news?q=fed", headers })).json().data.news_results[0]).toMatchObject({
        link: "http://www.latimes.com/a?track=rss",
        source: "Los Angeles Times",
      });
    } finally {
      await fresh.close();
    }
  });
});
