import { describe, expect, it } from "vitest";
import { canonicalUrl, countryOfHost, parseCompactDate, sourceId } from "../src/domain/articles.js";
import { parseFeed } from "../src/domain/feeds.js";
import { scoreTerms, surfaceForm } from "../src/domain/trending.js";

describe("articles", () => {
  it("canonicalizes URLs: https, no www, no tracking, no fragment, no trailing slash", () => {
    expect(canonicalUrl("http://www.Example.com/a/b/?utm_source=rss&id=2&fbclid=x#top")).toBe("https://example.com/a/b?id=2");
    expect(canonicalUrl("http://www.latimes.com/story,0,1312750.story\\?track=rss")).toBe("https://latimes.com/story,0,1312750.story");
    expect(canonicalUrl("ftp://example.com/file")).toBeNull();
    expect(canonicalUrl("not a url")).toBeNull();
  });

  it("derives ids and countries as stated in the README", () => {
    expect(sourceId("Los Angeles Times")).toBe("los-angeles-times");
    expect(sourceId("Ars Técnica & Co.")).toBe("ars-tecnica-and-co");
    expect(countryOfHost("www.bbc.co.uk")).toBe("gb");
    expect(countryOfHost("www.smh.com.au")).toBe("au");
    expect(countryOfHost("www.latimes.com")).toBeNull();
    expect(parseCompactDate("20030230")).toBeNull();
    expect(parseCompactDate("20030219")?.toISOString()).toBe("2003-02-19T00:00:00.000Z");
  });
});

describe("feeds", () => {
  it("refuses a document that is neither RSS nor Atom", () => {
    expect(parseFeed("<html><body>hi</body></html>")).toBeNull();
    expect(parseFeed("not xml at all <")).toBeNull();
  });
});

describe("trending", () => {
  it("ranks a real rise above noise and drops falls", () => {
    const scored = scoreTerms(
      [
        { lexeme: "storm", count: 12, previous_count: 0 },
        { lexeme: "elect", count: 60, previous_count: 40 },
        { lexeme: "rare", count: 3, previous_count: 0 },
        { lexeme: "fade", count: 5, previous_count: 9 },
        { lexeme: "tiny", count: 2, previous_count: 0 },
      ],
      10,
    );
    expect(scored.map((t) => t.lexeme)).toEqual(["storm", "elect", "rare"]);
    expect(scored[0]).toMatchObject({ score: 12, growth: 13 });
  });

  it("shows a stem as headlines spell it", () => {
    expect(surfaceForm("elect", ["Election night", "The election is close", "Elected at last"])).toBe("Election");
    expect(surfaceForm("happi", ["Happy days"])).toBe("Happy");
  });
});
