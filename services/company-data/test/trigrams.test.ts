/**
 * The pg_trgm re-implementation against PostgreSQL itself: every name and legal key of the real catalogue against
 * queries of every kind (whole names, typos, partial names, single words, digits, other scripts), compared exactly
 * (float4 values read as float8, so nothing is rounded on the way).
 */
import type { StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nameKey } from "../src/domain/names.js";
import { SIMILARITY_THRESHOLD, WORD_SIMILARITY_THRESHOLD, similarity, trigramSet, wordSimilarity } from "@apiplat/catalogue";
import { startCompanyData } from "./helpers.js";

let started: StartedService;
let keys: string[];

beforeAll(async () => {
  started = await startCompanyData();
  const { rows } = await started.platform.deps.db.query<{ key: string }>(
    "SELECT name_key AS key FROM companies UNION SELECT legal_key FROM companies WHERE legal_key IS NOT NULL ORDER BY key",
  );
  keys = rows.map((r) => r.key);
}, 120_000);
afterAll(() => started.close());

const QUERIES = [
  "apple",
  "aple inc",
  "Apple Inc.",
  "goldman",
  "goldman sachs",
  "goldmann sachs",
  "jonson and jonson",
  "johnson & johnson",
  "microsoft corp",
  "micro soft",
  "exxon",
  "exxon mobil",
  "berkshire hathaway",
  "berkshire",
  "bank of america",
  "bank",
  "general motors co",
  "general",
  "coca cola",
  "cocacola",
  "procter gamble",
  "lockheed martin",
  "netflix",
  "oracle corporation",
  "tesla, inc.",
  "intel",
  "pfizer",
  "boeing",
  "amazon",
  "alphabet",
  "wal-mart",
  "3m",
  "3 m",
  "7-eleven",
  "21st century fox",
  "2020",
  "123",
  "a",
  "ab",
  "co",
  "x",
  "international business machines",
  "first capital holdings",
  "energy transfer",
  "the walt disney company",
  "zzqxqzz",
  "aaaaaa",
  "abcabcabc",
  "Nestlé",
  "łódź",
  "東京電力",
  "ørsted",
  "société générale",
  "ΑΛΦΑ",
  "Straße",
  "sociedad quimica y minera de chile",
];

describe("pg_trgm in memory", () => {
  it("holds keys of every kind", () => {
    expect(keys.length).toBeGreaterThan(9_000);
    expect(keys.some((key) => /\d/.test(key))).toBe(true);
    // Accents are stripped from keys, but other letters beyond ASCII remain (hashed trigrams).
    expect(keys.filter((key) => /[^\x00-\x7f]/.test(key)).length).toBeGreaterThan(0);
  });

  it("computes similarity and word_similarity, and so % and <%, exactly as PostgreSQL", async () => {
    const queries = [...QUERIES.map(nameKey), ...keys.filter((key) => /[^\x00-\x7f]/.test(key)).slice(0, 5)];
    const mismatches: string[] = [];
    for (const query of queries) {
      const { rows } = await started.platform.deps.db.query<{ similarity: number[]; word: number[]; similar: boolean[]; word_similar: boolean[] }>(
        `SELECT array_agg(similarity(k, $1)::float8 ORDER BY i) AS similarity, array_agg(word_similarity($1, k)::float8 ORDER BY i) AS word,
           array_agg(k % $1 ORDER BY i) AS similar, array_agg($1 <% k ORDER BY i) AS word_similar
         FROM unnest($2::text[]) WITH ORDINALITY AS t(k, i)`,
        [query, keys],
      );
      const expected = rows[0];
      keys.forEach((key, i) => {
        const [s, w] = [similarity(key, query), wordSimilarity(query, key)];
        if (s !== expected.similarity[i] || w !== expected.word[i]) {
          mismatches.push(`${query} / ${key}: similarity ${s} (PostgreSQL ${expected.similarity[i]}), word ${w} (${expected.word[i]})`);
        }
        if (s >= SIMILARITY_THRESHOLD !== expected.similar[i] || w >= WORD_SIMILARITY_THRESHOLD !== expected.word_similar[i]) {
          mismatches.push(`${query} / ${key}: operators disagree`);
        }
      });
    }
    expect(mismatches.slice(0, 20)).toEqual([]);
  }, 300_000);

  it("makes the same trigrams as show_trgm, hashed ones included", async () => {
    const texts = ["apple", "Nestlé S.A.", "東京電力", "ørsted a/s", "a b c", "ΣΑΣ", "x", "3m co"];
    for (const text of texts) {
      const { rows } = await started.platform.deps.db.query<{ trigrams: string[] }>("SELECT show_trgm($1) AS trigrams", [text]);
      const shown = rows[0].trigrams.map((t) =>
        t.startsWith("0x") && t.length === 8 ? Number.parseInt(t.slice(2), 16) : [...Buffer.from(t)].reduce((v, b) => (v << 8) | b, 0),
      );
      expect(
        [...trigramSet(text)].sort((a, b) => a - b),
        text,
      ).toEqual(shown.sort((a, b) => a - b));
    }
  });
});
