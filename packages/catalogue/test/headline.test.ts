/**
 * Headlines made in the service: fragments, the opening, prefixes and negations by hand; and the words they mark
 * against PostgreSQL's own ts_headline (HighlightAll) over the HuffPost descriptions, the real dataset, for several
 * hundred queries as people type them.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { loadConfig } from "@apiplat/config";
import { createTestPlatform, seededRandom, type TestPlatform } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { headline, isCurrent, readForHeadlines, wordMatcher, wordOffsets, type HeadlineOptions } from "../src/index.js";

const OPTIONS: HeadlineOptions = { start: "<b>", stop: "</b>", maxWords: 30, minWords: 15, maxFragments: 2, delimiter: " … " };
const numbered = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `w${from + i}`).join(" ");

describe("headline", () => {
  it("marks the words whose stem is the query's, and ends on a word", () => {
    const text = "Roasting coffee at home: the roaster heats green beans until they crack.";
    expect(headline(readForHeadlines(text, "english"), wordMatcher("'roast' & 'bean'"), OPTIONS)).toBe(
      "<b>Roasting</b> coffee at home: the roaster heats green <b>beans</b> until they crack",
    );
  });

  it("shows the first minWords words when nothing matches, and nothing for a text without words", () => {
    const text = `${numbered(1, 40)}.`;
    expect(headline(readForHeadlines(text, "english"), wordMatcher("'coffe'"), OPTIONS)).toBe(numbered(1, 15));
    expect(headline(readForHeadlines(" … ", "english"), wordMatcher("'coffe'"), OPTIONS)).toBe("");
  });

  it("keeps the two fragments with the most distinct matched words, in the text's order, at most maxWords each", () => {
    // 200 words: "coffee" alone at 20; "coffee" and "grinder" together at 100-101; "coffee" and "grinder" again at 170-171.
    const words = Array.from({ length: 200 }, (_, i) => `w${i}`);
    words[20] = "coffee";
    words[100] = "coffee";
    words[101] = "grinder";
    words[170] = "coffee";
    words[175] = "grinders";
    const result = headline(readForHeadlines(words.join(" "), "english"), wordMatcher("'coffe' | 'grinder'"), OPTIONS);
    const fragments = result.split(" … ");
    expect(fragments).toHaveLength(2);
    // Each fragment centres its matches in 30 words: 100-101 leave 28, 14 before; 170-175 leave 24, 12 before.
    expect(fragments[0]).toBe([...words.slice(86, 100), "<b>coffee</b>", "<b>grinder</b>", ...words.slice(102, 116)].join(" "));
    expect(fragments[1]).toBe([...words.slice(158, 170), "<b>coffee</b>", ...words.slice(171, 175), "<b>grinders</b>", ...words.slice(176, 188)].join(" "));
  });

  it("fits a second fragment beside the first when their windows would overlap", () => {
    // 50 words: "grinder" at 10, "coffee grinders" at 40-41. The better fragment (two stems) takes words 20-49; the other
    // keeps its match and the 20 words left before it.
    const words = Array.from({ length: 50 }, (_, i) => `w${i}`);
    words[10] = "grinder";
    words[40] = "coffee";
    words[41] = "grinders";
    const marked = words.map((word, i) => ([10, 40, 41].includes(i) ? `<b>${word}</b>` : word));
    expect(headline(readForHeadlines(words.join(" "), "english"), wordMatcher("'coffe' & 'grinder'"), OPTIONS)).toBe(
      `${marked.slice(0, 20).join(" ")} … ${marked.slice(20).join(" ")}`,
    );
  });

  it("never lets fragments overlap, and keeps a fragment inside the text at its edges", () => {
    const text = `coffee ${numbered(1, 10)} coffee`;
    expect(headline(readForHeadlines(text, "english"), wordMatcher("'coffe'"), OPTIONS)).toBe(`<b>coffee</b> ${numbered(1, 10)} <b>coffee</b>`);
  });

  it("marks prefixes, not negated words, and does not stem under the simple configuration", () => {
    const text = "Coffee cofounders skip decaf while roasting";
    expect(headline(readForHeadlines(text, "english"), wordMatcher("'cof':* & !'decaf'"), OPTIONS)).toBe(
      "<b>Coffee</b> <b>cofounders</b> skip decaf while roasting",
    );
    expect(headline(readForHeadlines(text, "simple"), wordMatcher("'roast'"), OPTIONS)).toBe(text);
    expect(headline(readForHeadlines(text, "simple"), wordMatcher("'roasting'"), OPTIONS)).toBe("Coffee cofounders skip decaf while <b>roasting</b>");
    expect(headline(readForHeadlines(text, "english"), wordMatcher("!'decaf'"), OPTIONS)).toBe("Coffee cofounders skip decaf while roasting");
  });

  it("does not mark an english stop word, though its stem is a query word ('heres' -> 'here')", () => {
    expect(headline(readForHeadlines("Here's where the heres go", "english"), wordMatcher("'here'"), OPTIONS)).toBe("Here's where the <b>heres</b> go");
  });
});

describe("wordOffsets up to an end", () => {
  it("keeps the words that end by it and leaves out one running past it", () => {
    const text = "ab cd, éf 𝒳y gh";
    expect([...wordOffsets(text)]).toEqual([0, 2, 3, 5, 7, 9, 10, 13, 14, 16]);
    expect([...wordOffsets(text, 9)]).toEqual([0, 2, 3, 5, 7, 9]);
    expect([...wordOffsets(text, 8)]).toEqual([0, 2, 3, 5]);
    // "𝒳" is two code units: an end between them leaves the word out.
    expect([...wordOffsets(text, 11)]).toEqual([0, 2, 3, 5, 7, 9]);
    expect([...wordOffsets(text, 100)]).toEqual([...wordOffsets(text)]);
  });

  it("makes a headline of only those words", () => {
    const text = `${numbered(1, 40)} coffee ${numbered(41, 60)}`;
    const end = text.indexOf("coffee") + "coffee".length;
    expect(headline(readForHeadlines(text, "english", end), wordMatcher("'coffe'"), OPTIONS)).toBe(`${numbered(12, 40)} <b>coffee</b>`);
    expect(headline(readForHeadlines(text, "english", end - 1), wordMatcher("'coffe'"), OPTIONS)).toBe(numbered(1, 15));
  });
});

describe("texts read for headlines", () => {
  it("are read again once their configuration's stem table is full: 300,000 word forms, then a new table", () => {
    const first = readForHeadlines("roast coffee beans", "simple");
    expect(isCurrent(first)).toBe(true);
    const many = Array.from({ length: 300_000 }, (_, i) => `f${i}`).join(" ");
    const crowded = readForHeadlines(many, "simple");
    expect(crowded.table).toBe(first.table);
    const next = readForHeadlines("roast coffee beans", "simple");
    expect(next.table).not.toBe(first.table);
    expect([isCurrent(first), isCurrent(crowded), isCurrent(next)]).toEqual([false, false, true]);
    expect(headline(next, wordMatcher("'coffee'"), OPTIONS)).toBe("roast <b>coffee</b> beans");
  });
});

const datasetsDir = loadConfig(process.env).datasetsDir;
const descriptions = readFileSync(path.join(datasetsDir, "news/News_Category_Dataset_v3.json"), "utf8")
  .split("\n")
  .filter((line) => line.trim())
  .slice(0, 3000)
  .map((line) => (JSON.parse(line) as { short_description: string }).short_description)
  .filter((text) => text.length > 40);

const markedWords = (text: string) => [...text.matchAll(/<b>(.*?)<\/b>/g)].map((m) => m[1]);

describe("headline marks the words PostgreSQL's ts_headline marks", () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await createTestPlatform();
  });

  afterAll(async () => {
    await platform?.close();
  });

  it("for 300 queries of the descriptions' own words over the descriptions holding them", async () => {
    const next = seededRandom(11);
    const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
    const wordOf = (text: string) =>
      pick(
        text
          .split(/\s+/)
          .map((w) => w.replace(/[^\p{L}\p{N}]/gu, ""))
          .filter((w) => w.length > 2),
      ) ?? "news";
    let compared = 0;
    for (let i = 0; i < 300; i++) {
      const text = pick(descriptions);
      const query = next() < 0.5 ? wordOf(text) : `${wordOf(text)} OR ${wordOf(pick(descriptions))} ${wordOf(text)}`;
      const { rows } = await platform.deps.db.query<{ tsquery: string; marked: string }>(
        `SELECT q::text AS tsquery, ts_headline('english', $2, q, 'HighlightAll=true, StartSel=<b>, StopSel=</b>') AS marked
         FROM websearch_to_tsquery('english', $1) AS q`,
        [query, text],
      );
      const mine = headline(readForHeadlines(text, "english"), wordMatcher(rows[0].tsquery), { ...OPTIONS, maxWords: 10_000, maxFragments: 1 });
      expect(markedWords(mine), `${query} -> ${rows[0].tsquery} in: ${text}`).toEqual(markedWords(rows[0].marked));
      compared++;
    }
    expect(compared).toBe(300);
  }, 60_000);
});
