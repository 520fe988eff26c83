/**
 * The in-memory text search against the SQL search it replaces, on the same catalogue: random queries (words, OR,
 * exclusions, phrases, prefixes, typos) crossed with random filters, sorts and pages must give the same total, the
 * same articles in the same order, and the same facet counts.
 */
import { pageOf, prepareTextQuery, textSearchConfig } from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import { seededRandom, type StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articleCatalogue, searchArticlesByText, type ArticleCatalogue } from "../src/store/article-catalogue.js";
import { articleFacets, searchArticles, type ArticleFilters, type ArticleSort } from "../src/store/articles.js";
import { startNews } from "./helpers.js";

let started: StartedService;
let db: Queryable;
let catalogue: ArticleCatalogue;

beforeAll(async () => {
  started = await startNews();
  db = started.platform.deps.db;
  catalogue = articleCatalogue(db);
}, 180_000);

afterAll(async () => {
  await started?.close();
});

const WORDS = ["trump", "police", "world", "women", "photos", "new", "week", "apple", "google", "health", "cofee", "vaccine", "court", "says", "market"];
const CATEGORIES = ["politics", "entertainment", "business", "wellness", "sports", "crime", "comedy"];
const COUNTRIES = ["us", "au", "in", "gb"];

describe("the in-memory text search", () => {
  it("gives the SQL search's answers for 250 random searches", async () => {
    const next = seededRandom(19);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
    const shapes = [
      () => pick(WORDS),
      () => `${pick(WORDS)} ${pick(WORDS)}`,
      () => `${pick(WORDS)} OR ${pick(WORDS)}`,
      () => `${pick(WORDS)} -${pick(WORDS)}`,
      () => `"${pick(WORDS)} ${pick(WORDS)}"`,
      () => `${pick(WORDS).slice(0, 3)}*`,
    ];
    for (let i = 0; i < 250; i++) {
      const q = pick(shapes)();
      const text = { query: await prepareTextQuery(db, q), config: textSearchConfig("en") };
      const filters: ArticleFilters = {
        text,
        categories: next() < 0.3 ? `${pick(CATEGORIES)},${pick(CATEGORIES).toUpperCase()}` : undefined,
        countries: next() < 0.3 ? pick(COUNTRIES) : undefined,
        language: next() < 0.1 ? "en" : undefined,
        sources: next() < 0.1 ? "huffpost" : undefined,
        range: next() < 0.2 ? { from: new Date(Date.UTC(2014, 0, 1) + next() * 3e11) } : undefined,
      };
      const sort = pick<ArticleSort>(["relevancy", "relevancy", "published_at", "popularity"]);
      const page = pageOf({ limit: pick([1, 10, 100]) });
      page.offset = pick([0, 0, 5, 40]);
      const expected = await searchArticles(db, filters, sort, page);
      const facets = await articleFacets(db, filters);
      const found = await searchArticlesByText(catalogue, db, { ...filters, text }, sort, page, true);
      const label = `${q} ${JSON.stringify({ ...filters, text: undefined })} ${sort} ${page.offset}+${page.limit}`;
      expect(found.total, label).toBe(expected.total);
      expect(
        found.articles.map((a) => a.id),
        label,
      ).toEqual(expected.articles.map((a) => a.id));
      expect(found.articles, label).toEqual(expected.articles);
      expect(found.facets, label).toEqual(facets);
    }
  }, 180_000);

  it("sees an ingestion run at once", async () => {
    const query = { query: await prepareTextQuery(db, "zyzzyvas"), config: "english" };
    const before = await searchArticlesByText(catalogue, db, { text: query }, "relevancy", pageOf({}), false);
    expect(before.total).toBe(0);
    await db.query(
      `INSERT INTO articles (id, dataset, source_id, source_name, title, published_at, language, revision)
       VALUES ('test-zyzzyvas', 'test', 'test', 'Test', 'Zyzzyvas everywhere', now(), 'en', 1)`,
    );
    await db.query("INSERT INTO ingest_runs (source, started_at, finished_at, status, changed_catalogue) VALUES ('test', now(), now(), 'succeeded', true)");
    const after = await searchArticlesByText(catalogue, db, { text: query }, "relevancy", pageOf({}), false);
    expect(after.articles.map((a) => a.id)).toEqual(["test-zyzzyvas"]);
  });
});
