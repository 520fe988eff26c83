import { wordMatcher } from "@apiplat/catalogue";
import { describe, expect, it } from "vitest";
import { canonicalUrl, displayedLink, htmlToText, isExplicit, parseDumpRow, wikipediaUrlOfDbpedia } from "../src/domain/pages.js";
import { anyWordText } from "../src/domain/query.js";
import { relatedQueries } from "../src/domain/related.js";
import { isAllowed, parseRobots } from "../src/domain/robots.js";
import { snippetOf } from "../src/domain/snippets.js";

describe("robots.txt", () => {
  const robots = parseRobots(
    "# comment\nUser-agent: *\nDisallow: /private\nAllow: /private/open\nDisallow: /*.pdf$\nCrawl-delay: 2\n\nUser-agent: apiplat-search-bot\nUser-agent: other\nDisallow: /mine\n",
    "apiplat-search-bot/1.0",
  );
  it("reads the group of our user agent rather than *", () => {
    expect(robots.crawlDelaySeconds).toBeNull();
    expect(isAllowed(robots, "/mine/page")).toBe(false);
    expect(isAllowed(robots, "/private")).toBe(true);
  });
  const star = parseRobots(
    "User-agent: *\nDisallow: /private\nAllow: /private/open\nDisallow: /*.pdf$\nDisallow:\nCrawl-delay: 1.5\n",
    "apiplat-search-bot/1.0",
  );
  it("applies the longest matching rule, Allow on a tie, wildcards and $", () => {
    expect(star.crawlDelaySeconds).toBe(1.5);
    expect(isAllowed(star, "/private/x")).toBe(false);
    expect(isAllowed(star, "/private/open/y")).toBe(true);
    expect(isAllowed(star, "/docs/a.pdf")).toBe(false);
    expect(isAllowed(star, "/docs/a.pdf?x=1")).toBe(true);
    expect(isAllowed(star, "/")).toBe(true);
    expect(isAllowed(parseRobots("User-agent: *\nDisallow: /a\nAllow: /a\n", "bot"), "/a")).toBe(true);
    expect(isAllowed(parseRobots("", "bot"), "/anything")).toBe(true);
  });
});

describe("pages", () => {
  it("shows links as a results page does", () => {
    expect(displayedLink("https://en.wikipedia.org/wiki/Choc'late_Allen")).toBe("https://en.wikipedia.org › wiki › Choc'late_Allen");
    expect(displayedLink("https://beer.stackexchange.com/questions/8")).toBe("https://beer.stackexchange.com › questions › 8");
    expect(displayedLink("https://example.org")).toBe("https://example.org");
  });
  it("canonicalizes URLs and maps DBpedia names to Wikipedia", () => {
    expect(canonicalUrl("HTTPS://Example.ORG/a/#frag")).toBe("https://example.org/a");
    expect(canonicalUrl("ftp://example.org/")).toBeNull();
    expect(wikipediaUrlOfDbpedia("<http://dbpedia.org/resource/Choc\\'late_Allen>")).toBe("https://en.wikipedia.org/wiki/Choc'late_Allen");
    expect(wikipediaUrlOfDbpedia("not a uri")).toBeNull();
  });
  it("reads dump rows and their HTML bodies", () => {
    expect(parseDumpRow('  <row Id="1" Title="A &amp; B" Body="&lt;p&gt;x&lt;/p&gt;&#xA;" />')).toEqual({ Id: "1", Title: "A & B", Body: "<p>x</p>\n" });
    expect(parseDumpRow('  <row Id="1" Title="broken />')).toBeNull();
    expect(htmlToText("<p>One &amp; two</p><pre><code>x = 1</code></pre><script>bad()</script>")).toBe("One & two x = 1");
  });
  it("flags explicit words as whole words only", () => {
    expect(isExplicit("A naked man")).toBe(true);
    expect(isExplicit("Sussex and Essex")).toBe(false);
  });
});

describe("queries, snippets and related searches", () => {
  it("turns a plain query into any-word matching, and leaves operators alone", () => {
    expect(anyWordText("porter vs stout")).toBe("porter OR vs OR stout");
    expect(anyWordText("coffee")).toBeNull();
    expect(anyWordText('"moka pot"')).toBeNull();
    expect(anyWordText("beer -lager")).toBeNull();
    expect(anyWordText("ale OR lager")).toBeNull();
  });
  it("makes snippets of the text around the matched words, whitespace runs as one space, each highlighted word once", () => {
    const page = { title: "Beans", body: "Keep beans\n cold; Beans and  beans", text_config: "english" };
    expect(snippetOf(page, wordMatcher("'bean'"))).toEqual({ snippet: "Keep beans cold; Beans and beans", snippet_highlighted_words: ["beans", "Beans"] });
    const far = { ...page, body: `beans ${"filler ".repeat(60)}roast beans and more beans.` };
    expect(snippetOf(far, wordMatcher("'roast' | 'bean'"))).toEqual({
      snippet: `beans ${"filler ".repeat(29).trim()} … ${"filler ".repeat(25)}roast beans and more beans`,
      snippet_highlighted_words: ["beans", "roast"],
    });
    expect(snippetOf({ ...page, body: "" }, wordMatcher("'cold'"))).toEqual({ snippet: "Beans", snippet_highlighted_words: [] });
  });
  it("suggests the phrases most results share, without the query's own words", () => {
    const texts = ["Moka pot on induction stove", "Cleaning a moka pot: induction stove tips", "Moka pot crema", "Crema from a moka pot on a gas stove"];
    // stove is in three texts; "induction stove" and crema in two (a pair before a word); induction is inside the pair.
    expect(relatedQueries("moka pot", texts)).toEqual(["moka pot stove", "moka pot induction stove", "moka pot crema"]);
    expect(relatedQueries("moka pot", ["only one text about moka pot crema"])).toEqual([]);
  });
  it("suggests only phrases that come with every word of the query, or none", () => {
    // Results matched by one word of the query (any-word search) say nothing of what goes with the query.
    const beers = ["The height of a beer head", "Beer head height and glass shape", "Why beer foam height varies"];
    expect(relatedQueries("eiffel tower height", beers)).toEqual([]);
    const texts = [...beers, "Eiffel tower height in metres", "The Eiffel tower height grew in metres with its antenna"];
    expect(relatedQueries("eiffel tower height", texts)).toEqual(["eiffel tower height metres"]);
    expect(relatedQueries("beer -lager", ["Beer foam and head", "Beer foam, lager aside"])).toEqual(["beer foam"]);
  });
  it("keeps the order past the phrases it sorts first when those do not fill the list", () => {
    // 15 pairs, then their 30 words (each inside a chosen pair, so skipped), then the standalone words, all in two texts.
    const n = (i: number) => String(i).padStart(2, "0");
    const pairs = Array.from({ length: 15 }, (_, i) => `aa${n(i)} bb${n(i)}`);
    const singles = Array.from({ length: 6 }, (_, i) => `zz${n(i)}`);
    const text = ["qqq", ...pairs, ...singles].join(" the ");
    expect(relatedQueries("qqq", [text, text], 20)).toEqual([...pairs, ...singles.slice(0, 5)].map((phrase) => `qqq ${phrase}`));
  });
});
