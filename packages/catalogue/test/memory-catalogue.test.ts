/**
 * memoryCatalogue's compilations: searches that arrive together share one statement, each still gets its own
 * tsqueries, one search whose values the database refuses fails alone, a search asked again is not compiled again,
 * and a finished ingestion run is seen by the next search.
 */
import { migrate, type Queryable } from "@apiplat/storage";
import { createTestPlatform, type TestPlatform } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogueTables, memoryCatalogue, type MemoryCatalogue } from "../src/index.js";

let platform: TestPlatform;
let db: Queryable;
let statements = 0;
let sent: string[] = [];
let loads = 0;
let catalogue: MemoryCatalogue<{ id: number }>;

beforeAll(async () => {
  platform = await createTestPlatform();
  await migrate(platform.deps.db, catalogueTables.namespace, catalogueTables.migrations);
  const counting: Queryable = {
    query: (sql, params) => {
      statements++;
      sent.push(sql);
      return platform.deps.db.query(sql, params);
    },
    exec: (sql) => platform.deps.db.exec(sql),
  };
  db = platform.deps.db;
  catalogue = memoryCatalogue(counting, async () => {
    loads++;
    return { rows: [{ id: 1 }], vectors: {} };
  });
  await catalogue.current(); // the first snapshot's read is not what the tests count
}, 60_000);

afterAll(async () => {
  await platform?.close();
});

const compileWords = (text: string) => catalogue.compile((filter) => ({ words: `websearch_to_tsquery('english', ${filter.param(text)})` }));

describe("memoryCatalogue's compilations", () => {
  it("compiles twenty searches that arrive together in one statement, each its own", async () => {
    const texts = Array.from({ length: 20 }, (_, i) => `coffee${i} OR "black tea" -milk${i}`);
    statements = 0;
    const compiled = await Promise.all(texts.map(compileWords));
    expect(statements).toBe(1);
    expect(compiled.map((c) => c.tsqueries.words)).toEqual(texts.map((_, i) => `'coffee${i}' | 'black' <-> 'tea' & !'milk${i}'`));
  });

  it("fails only the search whose values the database refuses", async () => {
    const asked = [
      compileWords("espresso"),
      catalogue.compile((filter) => ({ words: `to_tsquery('english', ${filter.param("unbalanced & (")})` })),
      compileWords("crema"),
    ];
    const settled = await Promise.allSettled(asked);
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(settled.map((s) => (s.status === "fulfilled" ? s.value.tsqueries.words : null))).toEqual(["'espresso'", null, "'crema'"]);
  });

  it("compiles a search asked again from memory, and still reads the version for it", async () => {
    const first = await compileWords("flat white -sugar");
    sent = [];
    const again = await Promise.all([compileWords("flat white -sugar"), compileWords("flat white -sugar")]);
    expect(again.map((c) => c.tsqueries.words)).toEqual(["'flat' & 'white' & !'sugar'", "'flat' & 'white' & !'sugar'"]);
    expect(again.map((c) => c.snapshot.version)).toEqual([first.snapshot.version, first.snapshot.version]);
    expect(sent).toHaveLength(1);
    expect(sent[0]).not.toContain("websearch_to_tsquery");
    expect(sent[0]).toContain("ingest_runs");
  });

  it("reads the rows again for the first search after a run finished, and only then", async () => {
    loads = 0;
    await compileWords("coffee");
    expect(loads).toBe(0);
    await db.query("INSERT INTO ingest_runs (source, started_at, finished_at, status, changed_catalogue) VALUES ('test', now(), now(), 'succeeded', true)");
    await compileWords("coffee");
    await Promise.all([compileWords("tea"), catalogue.current()]);
    expect(loads).toBe(1);
  });
});
