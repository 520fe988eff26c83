/**
 * The in-memory TextIndex against PostgreSQL itself: the same weighted tsvectors (HuffPost headlines and
 * descriptions, the real dataset), several hundred queries as people type them (words, OR, -exclusion, "phrases",
 * prefixes, stop words, repeats), and every matching document with its ts_rank_cd must be the database's, to the
 * last bit of the float4. Likewise the Vocabulary's typo correction against prepareTextQuery's pg_trgm SQL.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { loadConfig } from "@apiplat/config";
import { migrate, type Queryable } from "@apiplat/storage";
import { createTestPlatform, seededRandom, type TestPlatform } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogueTables, parseTsquery, parseTsvector, prepareTextQuery, refreshVocabulary, TextIndex, Vocabulary } from "../src/index.js";

const datasetsDir = loadConfig(process.env).datasetsDir;
const DOCUMENTS = 4000;

interface Headline {
  headline: string;
  short_description: string;
}

const headlines: Headline[] = readFileSync(path.join(datasetsDir, "news/News_Category_Dataset_v3.json"), "utf8")
  .split("\n")
  .filter((line) => line.trim())
  .slice(0, DOCUMENTS)
  .map((line) => JSON.parse(line) as Headline);

/** Queries built from the headlines' own words, so most of them match something. */
function queries(count: number, seed: number): { text: string; prefix?: string }[] {
  const next = seededRandom(seed);
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
  const wordsOf = (h: Headline) =>
    h.headline
      .split(/\s+/)
      .map((w) => w.replace(/[^\p{L}\p{N}'-]/gu, ""))
      .filter(Boolean);
  const word = () => pick(wordsOf(pick(headlines))) ?? "news";
  const shapes: (() => { text: string; prefix?: string })[] = [
    () => ({ text: word() }),
    () => ({ text: `${word()} ${word()}` }),
    () => ({ text: `${word()} ${word()} ${word()}` }),
    () => ({ text: `${word()} OR ${word()}` }),
    () => ({ text: `${word()} -${word()}` }),
    () => ({ text: `-${word()} ${word()} OR ${word()}` }),
    () => {
      const words = wordsOf(pick(headlines));
      const at = Math.floor(next() * Math.max(1, words.length - 2));
      return { text: `"${words.slice(at, at + 2 + Math.floor(next() * 2)).join(" ")}"` };
    },
    () => ({
      text: `${word()} ${word()}`,
      prefix:
        word()
          .slice(0, 3)
          .toLowerCase()
          .replace(/[^a-z]/g, "") || "tru",
    }),
    () => ({
      text: "",
      prefix:
        word()
          .slice(0, 4)
          .toLowerCase()
          .replace(/[^a-z]/g, "") || "pres",
    }),
    () => {
      const w = word();
      return { text: `${w} ${w} the of` };
    },
  ];
  const fixed = [
    "trump",
    "climate change",
    "election -trump",
    '"supreme court"',
    "trump OR clinton",
    "the",
    "-trump",
    "covid-19",
    "donald's",
    "new york -trump",
  ];
  return [...fixed.map((text) => ({ text })), ...Array.from({ length: count }, () => pick(shapes)())];
}

async function tsqueryText(db: Queryable, query: { text: string; prefix?: string }): Promise<string> {
  const parts = [];
  const params: string[] = [];
  if (query.text) parts.push(`websearch_to_tsquery('english', $${params.push(query.text)})`);
  if (query.prefix) parts.push(`to_tsquery('english', $${params.push(`${query.prefix}:*`)})`);
  const { rows } = await db.query<{ q: string }>(`SELECT (${parts.join(" && ")})::text AS q`, params);
  return rows[0].q;
}

describe("TextIndex agrees with PostgreSQL", () => {
  let platform: TestPlatform;
  let db: Queryable;
  let index: TextIndex;

  beforeAll(async () => {
    platform = await createTestPlatform();
    db = platform.deps.db;
    await db.query("CREATE TABLE text_index_docs (id int PRIMARY KEY, document tsvector NOT NULL)");
    await db.query(
      `INSERT INTO text_index_docs
       SELECT ordinality - 1, setweight(to_tsvector('english', h->>'headline'), 'A') || setweight(to_tsvector('english', h->>'short_description'), 'B')
       FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(h, ordinality)`,
      [JSON.stringify(headlines)],
    );
    const { rows } = await db.query<{ v: string }>("SELECT document::text AS v FROM text_index_docs ORDER BY id");
    index = new TextIndex(rows.map((r) => r.v));
  }, 120_000);

  afterAll(async () => {
    await platform?.close();
  });

  it("reads tsvector and tsquery text as PostgreSQL writes it", () => {
    expect(parseTsvector("'don''t':1A,3 'a\\\\b':2B 'x'")).toEqual([
      { lexeme: "don't", positions: [(3 << 14) | 1, 3] },
      { lexeme: "a\\b", positions: [(2 << 14) | 2] },
      { lexeme: "x", positions: [] },
    ]);
    const parsed = parseTsquery("'a' & !( 'b' | 'c':* ) & 'd' <-> 'e' <2> 'f'");
    expect(parsed.terms.map((t) => [t.lexeme, t.prefix])).toEqual([
      ["a", false],
      ["b", false],
      ["c", true],
      ["d", false],
      ["e", false],
      ["f", false],
    ]);
    expect(parsed.root?.kind).toBe("and");
    expect(parseTsquery("").root).toBeNull();
  });

  it("matches and ranks every query as the database does", async () => {
    let compared = 0;
    for (const query of queries(400, 42)) {
      const tsquery = await tsqueryText(db, query);
      const normalization = [33, 33, 33, 0, 1, 2, 4, 8, 16, 32][compared % 10];
      const { rows } = await db.query<{ id: number; rank: number }>(
        "SELECT id, ts_rank_cd(document, $1::tsquery, $2) AS rank FROM text_index_docs WHERE document @@ $1::tsquery ORDER BY id",
        [tsquery, normalization],
      );
      const found = index.search(tsquery, normalization);
      const mine = Array.from(found.docs, (id, i) => ({ id, rank: found.ranks[i] }));
      expect(mine, `${JSON.stringify(query)} -> ${tsquery} (normalization ${normalization})`).toEqual(
        rows.map((r) => ({ id: r.id, rank: Math.fround(r.rank) })),
      );
      expect(Array.from(index.documentsMatching(tsquery)), tsquery).toEqual(rows.map((r) => r.id));
      compared++;
    }
    expect(compared).toBeGreaterThan(100);
  }, 120_000);

  it("finds the database's best of any documents for OR'ed words with bestOf, ranking only those that could be", async () => {
    const next = seededRandom(7);
    let compared = 0;
    let pruned = 0;
    for (const query of queries(150, 99)) {
      const words = query.text.split(/\s+/).filter((w) => /^[\p{L}\p{N}]+$/u.test(w));
      if (words.length < 1) continue;
      const tsquery = await tsqueryText(db, { text: words.join(" OR ") });
      const normalization = [33, 33, 0, 1, 2, 8, 16, 32, 4][compared % 9];
      const every = index.documentsMatching(tsquery);
      // Some of the matching documents (a filter's survivors), and a page's worth of them or fewer.
      const docs = compared % 2 === 0 ? every : every.filter(() => next() < 0.6);
      const count = [1, 10, 20][compared % 3];
      const { rows } = await db.query<{ id: number; rank: number }>(
        `SELECT id, ts_rank_cd(document, $1::tsquery, $2) AS rank FROM text_index_docs WHERE id = ANY($3::int[])
         ORDER BY ts_rank_cd(document, $1::tsquery, $2) DESC, id LIMIT $4`,
        [tsquery, normalization, Array.from(docs), count],
      );
      const best = index.bestOf(tsquery, normalization, docs, count);
      const ranked = Array.from(best.docs, (id, i) => ({ id, rank: best.ranks[i] }));
      const top = [...ranked].sort((a, b) => b.rank - a.rank || a.id - b.id).slice(0, count);
      expect(top, `${tsquery} (normalization ${normalization}, ${docs.length} documents, best ${count})`).toEqual(
        rows.map((r) => ({ id: r.id, rank: Math.fround(r.rank) })),
      );
      if (best.docs.length < docs.length) pruned++;
      compared++;
    }
    expect(compared).toBeGreaterThan(100);
    expect(pruned).toBeGreaterThan(50);
  }, 120_000);

  it("corrects misspelt words as pg_trgm does", async () => {
    await migrate(platform.deps.db, catalogueTables.namespace, catalogueTables.migrations);
    await refreshVocabulary(
      platform.deps.db,
      "SELECT h->>'headline' FROM jsonb_array_elements($$" + JSON.stringify(headlines).replace(/\$\$/g, "") + "$$::jsonb) AS t(h)",
    );
    const { rows } = await db.query<{ term: string; documents: number }>("SELECT term, documents FROM search_vocabulary");
    expect(rows.length).toBeGreaterThan(1000);
    const vocabulary = new Vocabulary(rows);
    const next = seededRandom(5);
    const misspell = (word: string) => {
      const at = Math.floor(next() * word.length);
      const letter = "abcdefghijklmnopqrstuvwxyz"[Math.floor(next() * 26)];
      const edits = [
        () => word.slice(0, at) + word.slice(at + 1),
        () => word.slice(0, at) + letter + word.slice(at + 1),
        () => word.slice(0, at) + letter + word.slice(at),
        () => word.slice(0, at) + word.slice(at + 1, at + 2) + word.slice(at, at + 1) + word.slice(at + 2),
      ];
      return edits[Math.floor(next() * edits.length)]();
    };
    const ascii = rows.map((r) => r.term).filter((term) => /^[a-z]+$/.test(term));
    let corrected = 0;
    for (let i = 0; i < 400; i++) {
      const word = misspell(ascii[Math.floor(next() * ascii.length)]);
      if (word.length < 4 || vocabulary.has(word)) continue;
      const expected = await prepareTextQuery(db, word);
      const suggestion = vocabulary.closest(word);
      expect(suggestion ?? word, word).toBe(expected.text);
      if (suggestion) corrected++;
    }
    expect(corrected).toBeGreaterThan(50);
  });

  it("agrees on small documents, empty and NULL ones among them, under nested NOT, AND, OR, phrases and prefixes", async () => {
    // Four lexemes in short documents: every operator meets every arrangement of positions and weights. An empty
    // tsvector matches a NOT; a NULL matches nothing (a catalogue of several tables gives each index the others' rows
    // as NULLs).
    const next = seededRandom(13);
    const lexeme = () => "abcd"[Math.floor(next() * 4)];
    const written = Array.from({ length: 300 }, (_, i) =>
      i % 10 === 3
        ? null
        : i % 15 === 7
          ? ""
          : Array.from({ length: 2 + Math.floor(next() * 8) }, (_, p) => `'${lexeme()}':${p + 1}${"ABCD"[Math.floor(next() * 4)]}`).join(" "),
    );
    const { rows: stored } = await db.query<{ v: string | null }>(
      "SELECT v::tsvector::text AS v FROM unnest($1::text[]) WITH ORDINALITY AS t(v, i) ORDER BY i",
      [written],
    );
    const small = new TextIndex(stored.map((r) => r.v));
    const node = (depth: number): string => {
      const r = next();
      if (depth > 2 || r < 0.3) return `'${lexeme()}'`;
      // Parenthesized, as websearch_to_tsquery writes it: `!'a' <-> 'b'` would be a phrase over a NOT.
      if (r < 0.4) return `!( ${node(depth + 1)} )`;
      if (r < 0.45) return `'${lexeme()}' <-> '${lexeme()}'`;
      if (r < 0.5) return `'${lexeme()}':*`;
      return `( ${node(depth + 1)} ${next() < 0.5 ? "&" : "|"} ${node(depth + 1)} )`;
    };
    for (let i = 0; i < 150; i++) {
      const { rows } = await db.query<{ q: string }>("SELECT $1::tsquery::text AS q", [node(0)]);
      const tsquery = rows[0].q;
      const found = small.search(tsquery, 0);
      const { rows: expected } = await db.query<{ i: number; rank: number }>(
        `SELECT i::int - 1 AS i, ts_rank_cd(v::tsvector, $1::tsquery, 0) AS rank
         FROM unnest($2::text[]) WITH ORDINALITY AS t(v, i) WHERE v::tsvector @@ $1::tsquery ORDER BY i`,
        [tsquery, stored.map((r) => r.v)],
      );
      expect(
        Array.from(found.docs, (id, k) => ({ i: id, rank: found.ranks[k] })),
        tsquery,
      ).toEqual(expected.map((r) => ({ i: r.i, rank: Math.fround(r.rank) })));
      expect(Array.from(small.documentsMatching(tsquery)), tsquery).toEqual(expected.map((r) => r.i));
    }
  });

  it("refuses, as a programming error, what websearch syntax cannot write: a weight restriction, a phrase over a NOT", () => {
    expect(() => index.search("'trump':A", 33)).toThrow(/cannot answer 'trump':A/);
    expect(() => index.documentsMatching("'trump':A")).toThrow(/cannot answer/);
    expect(() => index.search("!'trump' <-> 'says'", 33)).toThrow(/cannot answer/);
  });
});
