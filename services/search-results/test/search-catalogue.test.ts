/**
 * The in-memory index: typo correction from memory corrects as the database does; queries of negations, stop words
 * and odd operators alone are answered (websearch_to_tsquery writes nothing the TextIndex refuses); an ingestion run
 * is seen by the next search.
 */
import type { Queryable } from "@apiplat/storage";
import { seededRandom, type StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchCatalogue, searchImages, searchNews, searchWeb, type Ranking, type SearchCatalogue, type SearchRequest } from "../src/store/search-catalogue.js";
import { correctedQuery } from "../src/store/spelling.js";
import { startIndexed } from "./helpers.js";

let started: StartedService;
let db: Queryable;
let catalogue: SearchCatalogue;

beforeAll(async () => {
  started = await startIndexed();
  db = started.platform.deps.db;
  catalogue = searchCatalogue(db);
}, 180_000);

afterAll(async () => {
  await started?.close();
});

const WORDS = {
  web: [
    "coffee",
    "espresso",
    "crema",
    "beer",
    "ale",
    "lager",
    "grinder",
    "keaton",
    "chess",
    "film",
    "love",
    "train",
    "beans",
    "water",
    "brew",
    "hops",
    "wizard",
    "the",
    "cofee",
    "naked",
    "sex",
    "store",
    "aging",
    "trappist",
    "moka",
    "pot",
    "milk",
    "police",
  ],
  images: ["dog", "frisbee", "giraffe", "pizza", "man", "riding", "wave", "train", "station", "cat", "table", "the", "woman", "street", "girafe", "bed"],
  news: ["climate", "ukraine", "apple", "iphone", "world", "cup", "stock", "market", "trump", "police", "women", "the", "sex", "clmate", "google", "week"],
};

describe("the in-memory index", () => {
  it("corrects typos as the database does", async () => {
    const next = seededRandom(37);
    const all = [...WORDS.web, ...WORDS.images, ...WORDS.news];
    const pick = () => all[Math.floor(next() * all.length)];
    for (let i = 0; i < 200; i++) {
      const q = [pick(), pick(), pick()].slice(0, 1 + Math.floor(next() * 3)).join(" ");
      expect(await correctedQuery(db, q, catalogue), q).toEqual(await correctedQuery(db, q));
    }
  }, 120_000);

  it("answers queries of negations, stop words and odd operators alone", async () => {
    const ranking: Ranking = { titleBoost: 0.3, anyWord: true, relatedDepth: 20 };
    const totals: Record<string, number[]> = {};
    for (const q of [
      "-lager",
      "-the",
      "the",
      "the of",
      "the -coffee",
      '"the of"',
      "coffee -",
      "beer OR",
      "OR beer",
      "-beer -coffee",
      "x",
      "ale -ale",
      '"-coffee"',
    ]) {
      const request: SearchRequest = { query: await correctedQuery(db, q), config: "english", safe: false, offset: 0, limit: 5 };
      totals[q] = [
        (await searchWeb(catalogue, request, ranking)).total,
        (await searchImages(catalogue, request)).total,
        (await searchNews(catalogue, request)).total,
      ];
    }
    for (const q of ["the", "the of", '"the of"', "-the", "ale -ale"]) expect(totals[q], q).toEqual([0, 0, 0]);
  }, 120_000);

  it("see an ingestion run at once", async () => {
    const request: SearchRequest = { query: { text: "zyzzyvas", corrected: null, prefixes: [] }, config: "english", safe: false, offset: 0, limit: 10 };
    const ranking: Ranking = { titleBoost: 0.3, anyWord: true, relatedDepth: 20 };
    expect((await searchWeb(catalogue, request, ranking)).total).toBe(0);
    await db.query(
      `INSERT INTO web_pages (id, dataset, url, title, body, language, revision)
       VALUES ('https://example.org/zyzzyvas', 'crawl', 'https://example.org/zyzzyvas', 'Zyzzyvas', 'Zyzzyvas are weevils.', 'en', 1)`,
    );
    await db.query("INSERT INTO ingest_runs (source, started_at, finished_at, status, changed_catalogue) VALUES ('test', now(), now(), 'succeeded', true)");
    const after = await searchWeb(catalogue, request, ranking);
    expect(after.hits.map((h) => [h.url, h.snippet])).toEqual([
      ["https://example.org/zyzzyvas", { snippet: "Zyzzyvas are weevils", snippet_highlighted_words: ["Zyzzyvas"] }],
    ]);
  });
});
