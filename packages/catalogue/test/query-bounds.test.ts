/**
 * The bounds of a text query, each at its edge: on the text as typed (checkTextQuery), on the compiled query against
 * the index (operands, prefix expansions, work), and in the database (the search's statement_timeout). Also what the
 * 32 excluded prefixes once broke: excluded prefixes stay excluded and minus-sign runs never reach PostgreSQL's parser.
 */
import { isApiError } from "@apiplat/service-kit";
import type { Database } from "@apiplat/storage";
import { createTestPlatform, type TestPlatform } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkTextQuery, QUERY_BOUNDS, splitTextQuery, SqlFilter, TextIndex, tsquerySql, type IndexBounds } from "../src/index.js";

let platform: TestPlatform;
let db: Database;

beforeAll(async () => {
  platform = await createTestPlatform();
  db = platform.deps.db;
}, 60_000);
afterAll(() => platform?.close());

/** The 400's issue for q, or "accepted". */
function outcome(run: () => unknown): string {
  try {
    run();
    return "accepted";
  } catch (error) {
    if (!isApiError(error) || error.statusCode !== 400 || error.details?.[0]?.field !== "q") throw error;
    return error.details[0].issue;
  }
}

describe("checkTextQuery", () => {
  const { maxWords, maxPrefixes, minPrefixLength, maxCharacters } = QUERY_BOUNDS;
  const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(" ");
  const prefixes = (n: number) => Array.from({ length: n }, (_, i) => `pr${i}*`).join(" ");

  it("takes each bound and refuses one past it, in words", () => {
    expect(outcome(() => checkTextQuery(words(maxWords)))).toBe("accepted");
    expect(outcome(() => checkTextQuery(words(maxWords + 1)))).toBe(`may have at most ${maxWords} words (it has ${maxWords + 1}); search for fewer words`);
    expect(outcome(() => checkTextQuery(words(maxWords).replaceAll(" ", " OR ")))).toBe("accepted");
    expect(outcome(() => checkTextQuery(words(maxWords + 1).replaceAll(" ", " or ")))).toBe(
      `may have at most ${maxWords} words (it has ${maxWords + 1}); search for fewer words`,
    );
    expect(outcome(() => checkTextQuery(prefixes(maxPrefixes)))).toBe("accepted");
    expect(outcome(() => checkTextQuery(prefixes(maxPrefixes + 1)))).toBe(
      `may have at most ${maxPrefixes} prefix terms ending in * (it has ${maxPrefixes + 1})`,
    );
    expect(outcome(() => checkTextQuery(`${"é".repeat(minPrefixLength)}*`))).toBe("accepted");
    expect(outcome(() => checkTextQuery(`${"é".repeat(minPrefixLength - 1)}*`))).toBe(
      `has the prefix "${"é".repeat(minPrefixLength - 1)}*": a prefix needs at least ${minPrefixLength} letters or digits before the *`,
    );
    expect(outcome(() => checkTextQuery("x".repeat(maxCharacters)))).toBe("accepted");
    expect(outcome(() => checkTextQuery("x".repeat(maxCharacters + 1)))).toBe(`must be at most ${maxCharacters} characters (it has ${maxCharacters + 1})`);
  });
});

describe("splitTextQuery", () => {
  it("keeps an excluded prefix excluded, and reduces runs of minus signs as PostgreSQL reads them", () => {
    expect(splitTextQuery("coffee -dec* bea*")).toMatchObject({ prefixes: ["-dec", "bea"], rest: "coffee" });
    expect(splitTextQuery("coffee --dec*")).toMatchObject({ prefixes: ["dec"] });
    expect(splitTextQuery(`coffee ${"-".repeat(41)}tea`)).toMatchObject({ rest: "coffee -tea" });
    expect(splitTextQuery(`coffee ${"-".repeat(40)}tea`)).toMatchObject({ rest: "coffee tea" });
    expect(splitTextQuery(`coffee ${"- ".repeat(40)}well-known -(tea) -"moka pot"`)).toMatchObject({ rest: 'coffee well-known (tea) -"moka pot"' });
  });

  it("compiles in PostgreSQL whatever minus signs the query holds, excluded prefixes as NOT", async () => {
    const compile = async (q: string) => {
      const filter = new SqlFilter();
      const { prefixes, rest } = splitTextQuery(q);
      const sql = tsquerySql(filter, { text: rest, corrected: null, prefixes }, "english");
      return (await db.query<{ q: string }>(`SELECT (${sql})::text AS q`, filter.params)).rows[0].q;
    };
    expect(await compile("coffee -dec* bea*")).toBe("'coffe' & !'dec':* & 'bea':*");
    expect(await compile(`the ${Array.from({ length: QUERY_BOUNDS.maxPrefixes }, (_, i) => `-w${i}*`).join(" ")}`)).toBe(
      Array.from({ length: QUERY_BOUNDS.maxPrefixes }, (_, i) => `!'w${i}':*`).join(" & "),
    );
    for (const shape of [
      `news ${"- ".repeat(40)}`,
      `news ${"-".repeat(40)}w1`,
      `news ${"-".repeat(41)}w1`,
      `news ${"-(".repeat(40)}w1`,
      `news ${"-_".repeat(40)}w1`,
    ]) {
      expect(await compile(shape)).toMatch(/^'news'( & !?'w1')?$/);
    }
  });
});

describe("TextIndex bounds", () => {
  // Three documents holding "cat" once each, and five words starting with "ab".
  const vectors = ["'cat':1 'ab1':2 'ab2':3", "'cat':1 'ab3':2", "'cat':2 'ab4':1 'ab5':3"];
  const index = (bounds: Partial<IndexBounds>) => new TextIndex(vectors, { maxOperands: 32, maxPrefixExpansions: 100, maxWork: 1_000_000, ...bounds });

  it("refuses more operands than its bound", () => {
    const query = (n: number) => Array.from({ length: n }, () => "'cat'").join(" | ");
    expect(outcome(() => index({ maxOperands: 4 }).search(query(4), 0))).toBe("accepted");
    expect(outcome(() => index({ maxOperands: 4 }).search(query(5), 0))).toBe(
      "has 5 search terms once compiled (a hyphenated word counts as its parts too), more than 4; search for fewer words",
    );
  });

  it("refuses a prefix standing for more words than its bound", () => {
    expect(outcome(() => index({ maxPrefixExpansions: 5 }).search("'ab':*", 0))).toBe("accepted");
    expect(outcome(() => index({ maxPrefixExpansions: 4 }).documentsMatching("'ab':*"))).toBe(
      'has the prefix "ab*", which stands for more than 4 words of the catalogue; give it more letters',
    );
  });

  it("refuses a search whose estimated work is past its bound", () => {
    // "cat": 3 postings, 3 ranked documents × 1 lexeme, 3 positions = 9; a count alone visits the 3 postings.
    expect(outcome(() => index({ maxWork: 9 }).search("'cat'", 0))).toBe("accepted");
    expect(outcome(() => index({ maxWork: 8 }).search("'cat'", 0))).toMatch(/^is too broad to search: .*an estimated 9 index entries to visit, more than 8\b/);
    expect(outcome(() => index({ maxWork: 3 }).documentsMatching("'cat'"))).toBe("accepted");
    expect(outcome(() => index({ maxWork: 2 }).documentsMatching("'cat'"))).toMatch(/an estimated 3 index entries to visit, more than 2\b/);
  });

  it("charges required words for scanning the matched documents' positions once per word, OR'ed words per position", () => {
    // "cat & ab1" matches document 0 only: postings 3 + 1 = 4, one ranked document × 2 lexemes = 2, and its positions
    // of the two words (1 + 1) scanned for each of 2 words at twice a posting's cost = 8: 14 in all.
    expect(outcome(() => index({ maxWork: 14 }).search("'cat' & 'ab1'", 0))).toBe("accepted");
    expect(outcome(() => index({ maxWork: 13 }).search("'cat' & 'ab1'", 0))).toMatch(/an estimated 14 index entries to visit, more than 13\b/);
    // Either word (OR) is ranked in one pass over the operands' positions, each at seven times a posting's cost (its
    // share of the snippets): 4 postings, 3 ranked documents × 2 lexemes, 4 positions × 7 = 38.
    expect(outcome(() => index({ maxWork: 38 }).search("'cat' | 'ab1'", 0))).toBe("accepted");
    expect(outcome(() => index({ maxWork: 37 }).search("'cat' | 'ab1'", 0))).toMatch(/an estimated 38 index entries to visit, more than 37\b/);
  });

  it("ranks queries of 32 operands, excluded ones included, as it does with fewer", () => {
    const all = index({}).search("'cat' & !'ab1'", 0)!;
    const many = index({}).search(["'cat'", "!'ab1'", ...Array.from({ length: 30 }, (_, i) => `!'zz${i}':*`)].join(" & "), 0);
    expect([...many.docs]).toEqual([1, 2]);
    expect([...many.docs]).toEqual([...all.docs]);
    expect([...many.ranks]).toEqual([...all.ranks]);
  });
});
