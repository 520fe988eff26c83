/**
 * The in-memory /search against the SQL search it replaces, on the same catalogue: random text searches (words, OR,
 * exclusions, phrases, prefixes, typos) and listings, crossed with random filters, sorts and pages (past the end
 * too), must give the same total, the same products in the same order, and the same facet counts.
 */
import { pageOf, prepareTextQuery, type TextQuery } from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import { seededRandom, type StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unknownCategoriesIn } from "../src/domain/product-search.js";
import { findProducts, openSearch, productCatalogue, type ProductCatalogue } from "../src/store/product-catalogue.js";
import { PRODUCT_SORTS, productFacets, searchProducts, unknownCategories, type ProductFilters } from "../src/store/products.js";
import { startProductData } from "./helpers.js";

let started: StartedService;
let db: Queryable;
let catalogue: ProductCatalogue;

beforeAll(async () => {
  started = await startProductData();
  db = started.platform.deps.db;
  catalogue = productCatalogue(db);
}, 180_000);

afterAll(async () => {
  await started?.close();
});

const WORDS = [
  "motorcycle",
  "light",
  "led",
  "cord",
  "extension",
  "battery",
  "kit",
  "black",
  "gloves",
  "work",
  "safety",
  "coffee",
  "dog",
  "great",
  "tea",
  "filter",
  "helmet",
  "hemlet",
  "windshild",
  "chocolate",
];
const CATEGORIES = ["industrial-scientific", "motorcycle-accessories-parts"];
const PRICES = [0, 5, 9.99, 10, 19.99, 24.99, 25, 33.33, 49.99, 50, 100, 199.99, 200, 1_000_000];
const RATINGS = [0, 1, 3.5, 4, 4.3, 4.5, 4.67, 4.75, 5];

describe("the in-memory search", () => {
  it("gives the SQL search's answers for 400 random searches and listings", async () => {
    const next = seededRandom(23);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
    const maybe = <T>(chance: number, value: () => T) => (next() < chance ? value() : undefined);
    const shapes = [
      () => pick(WORDS),
      () => `${pick(WORDS)} ${pick(WORDS)}`,
      () => `${pick(WORDS)} OR ${pick(WORDS)}`,
      () => `${pick(WORDS)} -${pick(WORDS)}`,
      () => `"${pick(WORDS)} ${pick(WORDS)}"`,
      () => `${pick(WORDS).slice(0, 3)}*`,
      () => `${pick(WORDS)} ${pick(WORDS).slice(0, 4)}*`,
    ];
    for (let i = 0; i < 400; i++) {
      const q = next() < 0.7 ? pick(shapes)() : undefined;
      const text: TextQuery | undefined = q === undefined ? undefined : await prepareTextQuery(db, q);
      const filters: ProductFilters = {
        text,
        locales: maybe(0.3, () => pick([["CA"], ["US"], ["CA", "US"]])),
        categories: maybe(0.3, () => pick([[CATEGORIES[0]], [CATEGORIES[1]], CATEGORIES])),
        minPrice: maybe(0.3, () => (next() < 0.8 ? pick(PRICES) : Math.round(next() * 30_000) / 100)),
        maxPrice: maybe(0.3, () => (next() < 0.8 ? pick(PRICES) : next() * 300)),
        minRating: maybe(0.3, () => pick(RATINGS)),
        isBestSeller: maybe(0.2, () => next() < 0.5),
      };
      // The route refuses relevance without q (the SQL would read its `0 DESC` as a column position).
      const sort = pick(PRODUCT_SORTS.filter((s) => text || s !== "relevance"));
      const page = pageOf({ limit: pick([1, 10, 50, 100]) });
      page.offset = pick([0, 0, 0, 0, 7, 45, 900, 7_700, 9_000]);
      const withFacets = next() < 0.5;
      const expected = await searchProducts(db, filters, sort, page);
      const facets = withFacets ? await productFacets(db, filters) : undefined;
      const search = await openSearch(catalogue, text);
      const found = await findProducts(db, search, filters, sort, page, withFacets);
      const label = `${q} ${JSON.stringify({ ...filters, text: undefined })} ${sort} ${page.offset}+${page.limit}`;
      expect(search.inDatabase, label).toBe(false);
      expect(found.total, label).toBe(expected.total);
      expect(
        found.products.map((p) => p.asin),
        label,
      ).toEqual(expected.products.map((p) => p.asin));
      expect(found.products, label).toEqual(expected.products);
      expect(found.facets, label).toEqual(facets);
    }
  }, 300_000);

  it("finds unknown categories as the database does", async () => {
    const { rows } = await openSearch(catalogue, undefined);
    for (const ids of [
      [],
      ["industrial-scientific"],
      ["garden", "industrial-scientific", "books"],
      ["motorcycle-accessories-parts", "industrial-scientific"],
    ]) {
      expect(unknownCategoriesIn(rows, ids), ids.join()).toEqual(await unknownCategories(db, ids));
    }
  });

  it("sees an ingestion run at once", async () => {
    const query = await prepareTextQuery(db, "zyzzyvas");
    const searchFor = async () => findProducts(db, await openSearch(catalogue, query), { text: query }, "relevance", pageOf({}), false);
    expect((await searchFor()).total).toBe(0);
    await db.query(
      `INSERT INTO products (asin, locale, dataset, title, rating_basis, category_id, category_name, revision)
       VALUES ('ZZZZZZZZZZ', 'CA', 'test', 'Zyzzyvas everywhere', 'marketplace', 'garden', 'Garden', 1)`,
    );
    await db.query("INSERT INTO ingest_runs (source, started_at, finished_at, status, changed_catalogue) VALUES ('test', now(), now(), 'succeeded', true)");
    expect((await searchFor()).products.map((p) => p.asin)).toEqual(["ZZZZZZZZZZ"]);
    expect(unknownCategoriesIn((await openSearch(catalogue, undefined)).rows, ["garden"]).unknown).toEqual([]);
  });
});
