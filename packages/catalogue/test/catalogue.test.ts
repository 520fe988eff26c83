import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createTestPlatform, type TestPlatform } from "@apiplat/testing";
import { migrate } from "@apiplat/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  MalformedRow,
  SqlFilter,
  datasetsView,
  tsquerySql,
  pageInfo,
  pageOf,
  prepareTextQuery,
  readCsv,
  readJsonArray,
  readJsonLines,
  refreshVocabulary,
  runIngestion,
  runIngestions,
  upsertRows,
  type IngestionSource,
  catalogueTables,
} from "../src/index.js";

const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));
interface Item extends Record<string, unknown> {
  id: string;
  title: string;
  category: string | null;
}

function itemsSource(): IngestionSource<Record<string, string>, Item> {
  return {
    name: "items",
    attribution: { file: "items.csv", title: "Test items", upstream: "this test", licence: "CC0" },
    read: (context) => readCsv(`${fixtures}items.csv`, { limit: context.limit }),
    toRows(record) {
      if (!record.title) throw new MalformedRow("title is empty");
      return [{ id: record.id, title: record.title, category: record.category || null }];
    },
    upsert: (db, rows) => upsertRows(db, { table: "items", key: ["id"], columns: ["id", "title", "category"] }, rows),
    finish: (db) => refreshVocabulary(db, "SELECT title FROM items"),
  };
}

describe("catalogue on PostgreSQL", () => {
  let platform: TestPlatform;
  const context = { datasetsDir: fixtures, now: () => new Date() };
  beforeAll(async () => {
    platform = await createTestPlatform();
    await migrate(platform.deps.db, catalogueTables.namespace, catalogueTables.migrations);
    await migrate(platform.deps.db, "catalogue-test", new URL("./fixtures/migrations", import.meta.url));
  });
  afterAll(() => platform.close());

  it("ingests, skips malformed records with their reasons, and a re-run changes nothing", async () => {
    const first = await runIngestion(platform.deps.db, itemsSource(), context);
    expect(first).toMatchObject({ status: "succeeded", rows_read: 6, inserted: 4, updated: 0, unchanged: 0, rows_skipped: 2 });
    expect(first.skipped).toEqual([
      { line: 3, reason: "the record has a different number of fields than the header" },
      { line: 5, reason: "title is empty" },
    ]);
    const again = await runIngestion(platform.deps.db, itemsSource(), context);
    expect(again).toMatchObject({ status: "succeeded", inserted: 0, updated: 0, unchanged: 4, rows_skipped: 2 });
    const { rows } = await platform.deps.db.query<{ n: number }>("SELECT count(*)::int AS n FROM items");
    expect(rows[0].n).toBe(4);
    const [view] = await datasetsView(platform.deps.db, [itemsSource()]);
    expect(view).toMatchObject({ name: "items", runs: 2, last_run: { status: "succeeded", rows_inserted: 0, rows_unchanged: 4 } });
  });

  it("runs a finish shared by consecutive sources once, after the last, even when the last fails", async () => {
    let finishes = 0;
    const finish = async () => {
      finishes += 1;
    };
    const good = { ...itemsSource(), finish };
    const missing = { ...itemsSource(), name: "missing", read: () => readCsv(`${fixtures}no-such-file.csv`), finish };
    const summaries = await runIngestions(platform.deps.db, [good, good, missing], context);
    expect(summaries.map((s) => s.status)).toEqual(["succeeded", "succeeded", "failed"]);
    expect(finishes).toBe(1);
  });

  it("updates a row whose fields changed, and only that row", async () => {
    const counts = await upsertRows(platform.deps.db, { table: "items", key: ["id"], columns: ["id", "title", "category"] }, [
      { id: "1", title: "Fresh coffee beans roasted daily", category: "drinks" },
      { id: "4", title: "Pale ale and stout", category: "ales" },
    ]);
    expect(counts).toEqual({ inserted: 0, updated: 1, unchanged: 1 });
  });

  it("corrects a misspelt word from the vocabulary and finds by prefix", async () => {
    const query = await prepareTextQuery(platform.deps.db, "cofee");
    expect(query.corrected).toBe("coffee");
    const filter = new SqlFilter();
    filter.where(`document @@ ${tsquerySql(filter, query, "english")}`);
    const { rows } = await platform.deps.db.query<{ id: string }>(`SELECT id FROM items ${filter.sql}`, filter.params);
    expect(rows.map((r) => r.id).sort()).toEqual(["1", "2", "6"]);
    const prefix = await prepareTextQuery(platform.deps.db, "sto*");
    const prefixFilter = new SqlFilter();
    prefixFilter.where(`document @@ ${tsquerySql(prefixFilter, prefix, "english")}`);
    const found = await platform.deps.db.query<{ id: string }>(`SELECT id FROM items ${prefixFilter.sql}`, prefixFilter.params);
    expect(found.rows).toEqual([{ id: "4" }]);
    const none = await prepareTextQuery(platform.deps.db, "coffee -brew");
    const noneFilter = new SqlFilter();
    noneFilter.where(`document @@ ${tsquerySql(noneFilter, none, "english")}`);
    const excluded = await platform.deps.db.query<{ id: string }>(`SELECT id FROM items ${noneFilter.sql}`, noneFilter.params);
    expect(excluded.rows).toEqual([{ id: "1" }]);
  });
});

describe("readers", () => {
  it("reads JSON Lines, reporting a broken line", async () => {
    const items = [];
    for await (const item of readJsonLines(`${fixtures}items.jsonl`)) items.push(item);
    expect(items).toEqual([
      { line: 1, value: { id: "a", title: "one" } },
      { line: 2, malformed: "the line is not valid JSON" },
      { line: 4, value: { id: "b", title: "two" } },
    ]);
  });

  it("streams the elements of a nested array, strings with brackets included", async () => {
    const path = `${fixtures}nested.json`;
    const document = JSON.parse(readFileSync(path, "utf8")) as { images: unknown[] };
    const items = [];
    for await (const item of readJsonArray(path, "images")) items.push(item);
    expect(items.map((i) => ("value" in i ? i.value : null))).toEqual(document.images);
  });
});

describe("cursors", () => {
  it("pages to the end and refuses a cursor of another query", () => {
    const first = pageOf({ q: "coffee", limit: 2 });
    const info = pageInfo(first, 5);
    expect(info.next_cursor).not.toBeNull();
    const second = pageOf({ q: "coffee", limit: 2, cursor: info.next_cursor! });
    expect(second.offset).toBe(2);
    const last = pageOf({ q: "coffee", limit: 2, cursor: pageInfo(second, 5).next_cursor! });
    expect(pageInfo(last, 5).next_cursor).toBeNull();
    expect(() => pageOf({ q: "tea", limit: 2, cursor: info.next_cursor! })).toThrow(/cursor/);
    expect(() => pageOf({ q: "coffee", cursor: "!!not-base64" })).toThrow(/cursor/);
  });
});
