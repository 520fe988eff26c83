/** The in-memory catalogue: its unknown categories are the database's, and an ingestion run is seen by the next search. */
import { pageOf, prepareTextQuery } from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import type { StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findProducts, openSearch, productCatalogue, unknownCategoriesIn, type ProductCatalogue } from "../src/store/product-catalogue.js";
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

/** The ids no product has and, only then, every id products have, as the database orders them. */
async function unknownCategories(ids: readonly string[]): Promise<{ unknown: string[]; known: string[] }> {
  const { rows } = await db.query<{ id: string }>(
    "SELECT id FROM unnest($1::text[]) AS wanted(id) WHERE NOT EXISTS (SELECT 1 FROM products WHERE category_id = wanted.id)",
    [ids],
  );
  if (rows.length === 0) return { unknown: [], known: [] };
  const known = await db.query<{ id: string }>("SELECT DISTINCT category_id AS id FROM products WHERE category_id IS NOT NULL ORDER BY 1");
  return { unknown: rows.map((row) => row.id), known: known.rows.map((row) => row.id) };
}

describe("the in-memory catalogue", () => {
  it("finds unknown categories as the database does", async () => {
    const { rows } = await openSearch(catalogue, undefined);
    for (const ids of [
      [],
      ["industrial-scientific"],
      ["garden", "industrial-scientific", "books"],
      ["motorcycle-accessories-parts", "industrial-scientific"],
    ]) {
      expect(unknownCategoriesIn(rows, ids), ids.join()).toEqual(await unknownCategories(ids));
    }
  });

  it("sees an ingestion run at once", async () => {
    const query = await prepareTextQuery(db, "zyzzyvas");
    const searchFor = async () => findProducts(await openSearch(catalogue, query), { text: query }, "relevance", pageOf({}), false);
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
