/**
 * The in-memory searches against the SQL searches they replace, on the same index: random queries (words, typos, OR,
 * exclusions, phrases, prefixes) crossed with language, safe search, rankings and pages (past the end included) must
 * give the same total and the same hits in the same order, snippets and related searches' openings included; and the
 * typo correction from memory must correct as the database does.
 */
import { textSearchConfig } from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import { seededRandom, type StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchCatalogue, searchImagesInMemory, searchNewsInMemory, searchWebInMemory, type SearchCatalogue } from "../src/store/search-catalogue.js";
import { searchImages, searchNews, searchWeb, type Ranking, type SearchRequest } from "../src/store/search.js";
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

type Pick = <T>(list: readonly T[]) => T;

function queryOf(words: readonly string[], pick: Pick): string {
  const shapes = [
    () => pick(words),
    () => `${pick(words)} ${pick(words)}`,
    () => `${pick(words)} ${pick(words)} ${pick(words)}`,
    () => `${pick(words)} OR ${pick(words)}`,
    () => `${pick(words)} -${pick(words)}`,
    () => `"${pick(words)} ${pick(words)}"`,
    () => `${pick(words).slice(0, 3)}*`,
    () => `${pick(words)} ${pick(words).slice(0, 3)}*`,
  ];
  return pick(shapes)();
}

async function requestOf(next: () => number, pick: Pick, words: readonly string[]): Promise<{ q: string; request: SearchRequest }> {
  const q = queryOf(words, pick);
  const language = pick([undefined, undefined, undefined, "en", "fr"]);
  const query = await correctedQuery(db, q, catalogue);
  expect(query, q).toEqual(await correctedQuery(db, q));
  return {
    q,
    request: {
      query,
      config: textSearchConfig(language ?? "en"),
      language,
      safe: next() < 0.3,
      offset: pick([0, 0, 0, 1, 5, 10, 40, 200, 5000]),
      limit: pick([1, 3, 10, 10, 30, 100]),
    },
  };
}

const label = (q: string, request: SearchRequest, extra: object = {}) => `${q} ${JSON.stringify({ ...request, query: request.query.text, ...extra })}`;

describe("the in-memory searches", () => {
  it("give the SQL web search's pages, snippets and openings for 300 random searches", async () => {
    const next = seededRandom(23);
    const pick: Pick = (list) => list[Math.floor(next() * list.length)];
    for (let i = 0; i < 300; i++) {
      const { q, request } = await requestOf(next, pick, WORDS.web);
      const ranking: Ranking = { titleBoost: pick([0.3, 0.3, 0, 0.7]), anyWord: next() < 0.8, relatedDepth: 20 };
      const expected = await searchWeb(db, request, ranking);
      const found = await searchWebInMemory(catalogue, db, request, ranking);
      const at = label(q, request, ranking);
      expect(found.total, at).toBe(expected.total);
      expect(
        found.hits.map((h) => h.url),
        at,
      ).toEqual(expected.hits.map((h) => h.url));
      expect(found.hits, at).toEqual(expected.hits);
    }
  }, 300_000);

  it("give the SQL searches' answers for queries of negations, stop words and odd operators alone", async () => {
    const ranking: Ranking = { titleBoost: 0.3, anyWord: true, relatedDepth: 20 };
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
      for (const offset of [0, 3]) {
        const request: SearchRequest = { query: await correctedQuery(db, q), config: "english", safe: false, offset, limit: 5 };
        const at = label(q, request);
        const [web, webSql] = [await searchWebInMemory(catalogue, db, request, ranking), await searchWeb(db, request, ranking)];
        expect(web.total, at).toBe(webSql.total);
        expect(web.hits, at).toEqual(webSql.hits);
        expect(await searchImagesInMemory(catalogue, db, request), at).toEqual(await searchImages(db, request));
        expect(await searchNewsInMemory(catalogue, db, request), at).toEqual(await searchNews(db, request));
      }
    }
  }, 120_000);

  it("give the SQL image search's pages for 250 random searches", async () => {
    const next = seededRandom(29);
    const pick: Pick = (list) => list[Math.floor(next() * list.length)];
    for (let i = 0; i < 250; i++) {
      const { q, request } = await requestOf(next, pick, WORDS.images);
      const expected = await searchImages(db, request);
      const found = await searchImagesInMemory(catalogue, db, request);
      expect(found.total, label(q, request)).toBe(expected.total);
      expect(found.hits, label(q, request)).toEqual(expected.hits);
    }
  }, 300_000);

  it("give the SQL news search's pages for 250 random searches", async () => {
    const next = seededRandom(31);
    const pick: Pick = (list) => list[Math.floor(next() * list.length)];
    for (let i = 0; i < 250; i++) {
      const { q, request } = await requestOf(next, pick, WORDS.news);
      const expected = await searchNews(db, request);
      const found = await searchNewsInMemory(catalogue, db, request);
      expect(found.total, label(q, request)).toBe(expected.total);
      expect(found.hits, label(q, request)).toEqual(expected.hits);
    }
  }, 300_000);

  it("see an ingestion run at once", async () => {
    const request: SearchRequest = { query: { text: "zyzzyvas", corrected: null, prefixes: [] }, config: "english", safe: false, offset: 0, limit: 10 };
    const ranking: Ranking = { titleBoost: 0.3, anyWord: true, relatedDepth: 20 };
    expect((await searchWebInMemory(catalogue, db, request, ranking)).total).toBe(0);
    await db.query(
      `INSERT INTO web_pages (id, dataset, url, title, body, language, revision)
       VALUES ('https://example.org/zyzzyvas', 'crawl', 'https://example.org/zyzzyvas', 'Zyzzyvas', 'Zyzzyvas are weevils.', 'en', 1)`,
    );
    await db.query("INSERT INTO ingest_runs (source, started_at, finished_at, status, changed_catalogue) VALUES ('test', now(), now(), 'succeeded', true)");
    const after = await searchWebInMemory(catalogue, db, request, ranking);
    expect(after.hits.map((h) => [h.url, h.marked])).toEqual([["https://example.org/zyzzyvas", "\u0002Zyzzyvas\u0003 are weevils"]]);
  });
});
