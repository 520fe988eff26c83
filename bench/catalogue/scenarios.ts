/** The scenarios of bench/catalogue/run.ts and paired.ts, by service: each a list of paths sent in turn. */
import type { Scenario } from "../lib/scenarios.js";

/** A scenario as sent, then the same with `Cache-Control: no-cache`: every request asked of the database, not the answer cache. */
function andUncached(scenario: Scenario): Scenario[] {
  return [scenario, { ...scenario, name: `${scenario.name}, Cache-Control: no-cache`, headers: { "cache-control": "no-cache" } }];
}

/**
 * Searches nobody asked before: `count` distinct queries of two or three everyday words of the service's data
 * (seeded), each sent once across all callers (more than a run sends), with no-cache. Nothing about them can have
 * been kept from an earlier request: not the answer, not the query's compilation.
 */
function distinctSearches(words: string[], count: number, path = "/search"): Scenario {
  let seed = 20261125;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const queries = new Set<string>();
  const word = () => words[Math.floor(next() * words.length)];
  while (queries.size < count) {
    const [a, b, c] = [word(), word(), word()];
    if (a === b || b === c || a === c) continue;
    const roll = next();
    queries.add(roll < 0.15 ? `${a} ${b} -${c}` : roll < 0.3 ? `${a} OR ${b} ${c}` : roll < 0.6 ? `${a} ${b} ${c}` : `${a} ${b}`);
  }
  return {
    name: `GET ${path}, ${queries.size} distinct queries (two words, OR, exclusions), Cache-Control: no-cache`,
    paths: [...queries].map((q) => `${path}?q=${encodeURIComponent(q)}`),
    headers: { "cache-control": "no-cache" },
    fresh: true,
  };
}

const NEWS_WORDS =
  "trump police world women photos new week apple google health vaccine court market school children election climate war china india fire water game film music star sport football cricket money bank oil tax city state president minister queen royal family love life death crime storm flood".split(
    " ",
  );
const VIDEO_WORDS =
  "music video official trailer live new best game minecraft christmas football highlights makeup tutorial comedy prank funny song dance cover reaction review vlog challenge news episode season full movie kids cat dog food recipe cooking".split(
    " ",
  );
const WEB_WORDS =
  "coffee espresso beer ale lager film actor director war love story family city water roast grinder brew milk chess game player history world music novel book king queen police crime".split(
    " ",
  );

export const SCENARIOS: Record<string, Scenario[]> = {
  news: [
    ...andUncached({
      name: "GET /search, 10 queries in turn (relevancy)",
      paths: [
        "trump",
        "climate change",
        "covid vaccine",
        "stock market",
        "world cup",
        "election -trump",
        "cofee",
        "apple iphone",
        "police shooting",
        '"supreme court"',
      ].map((q) => `/search?q=${encodeURIComponent(q)}`),
    }),
    distinctSearches(NEWS_WORDS, 150_000),
    ...andUncached({ name: "GET /search?country=us&category=politics (listing, newest first)", paths: ["/search?country=us&category=politics"] }),
    {
      name: "GET /search?language=en&sort_by=popularity&facets=true (listing of every article, with facets), Cache-Control: no-cache",
      paths: ["/search?language=en&sort_by=popularity&facets=true"],
      headers: { "cache-control": "no-cache" },
    },
    ...andUncached({ name: "GET /top-headlines?country=us", paths: ["/top-headlines?country=us"] }),
    { name: "GET /trending?window=7d", paths: ["/trending?window=7d"] },
  ],
  "search-results": [
    ...andUncached({
      name: "GET /search, 10 queries in turn (relevance, any word)",
      paths: [
        "espresso crema",
        "store coffee beans",
        "buster keaton",
        "cofee grinder",
        "trappist beer",
        "chess grandmaster",
        "aging beer",
        "wizard of oz",
        '"moka pot"',
        "ale -lager",
      ].map((q) => `/search?q=${encodeURIComponent(q)}`),
    }),
    distinctSearches(WEB_WORDS, 30_000),
    {
      name: "GET /images, 5 queries in turn",
      paths: ["dog frisbee", "giraffe", "pizza", "man riding a wave", "train station"].map((q) => `/images?q=${encodeURIComponent(q)}`),
    },
    {
      name: "GET /news, 5 queries in turn",
      paths: ["climate", "ukraine", "apple iphone", "world cup", "stock market"].map((q) => `/news?q=${encodeURIComponent(q)}`),
    },
  ],
  "video-analytics": [
    ...andUncached({
      name: "GET /search, 10 queries in turn (relevance)",
      paths: [
        "music video",
        "official trailer",
        "minecraft",
        "christmas",
        "thanksgivng",
        "football highlights",
        "makeup tutorial",
        "live",
        "comedy -prank",
        '"saturday night live"',
      ].map((q) => `/search?q=${encodeURIComponent(q)}`),
    }),
    distinctSearches(VIDEO_WORDS, 100_000),
    { name: "GET /search?country=us&sort=views", paths: ["/search?country=us&sort=views"] },
    { name: "GET /trending?country=us", paths: ["/trending?country=us"] },
    { name: "GET /video/{id}", paths: ["/video/sXP6vliZIHI"] },
  ],
};
