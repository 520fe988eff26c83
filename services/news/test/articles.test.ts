import type { StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS, csvRows, huffPostRows, startNews } from "./helpers.js";

let started: StartedService;
let headers: Record<string, string>;
const huffpost = huffPostRows();
/** Articles are one per canonical link; of two records with one link, the later in the file is kept. */
const huffpostByLink = [...new Map(huffpost.map((r) => [r.link, r])).values()];

beforeAll(async () => {
  started = await startNews();
  headers = (await started.subscribe("PRO")).headers;
});
afterAll(() => started.close());

async function get(url: string, h: Record<string, string> = headers) {
  const res = await started.app.inject({ method: "GET", url, headers: h });
  return { status: res.statusCode, body: res.json() };
}

describe("GET /search", () => {
  it("finds an article by its exact headline, with every field as the dataset has it", async () => {
    const row = huffpost[17];
    const { status, body } = await get(`/search?q=${encodeURIComponent(`"${row.headline}"`)}`);
    expect(status).toBe(200);
    const article = body.data.articles[0];
    expect(article).toMatchObject({
      source: { id: "huffpost", name: "HuffPost" },
      author: row.authors || null,
      title: row.headline,
      description: row.short_description || null,
      // The link exactly as the dataset has it (only the id is derived from a canonical form).
      url: row.link,
      image_url: null,
      published_at: `${row.date}T00:00:00.000Z`,
      category: row.category.toLowerCase(),
      country: "us",
      language: "en",
      popularity: null,
    });
  });

  it("tolerates a typo: cofee finds the coffee articles and says what it searched", async () => {
    const coffee = /\bcoffees?\b/i;
    const expected =
      huffpost.filter((r) => coffee.test(`${r.headline} ${r.short_description}`)).length +
      csvRows("uci-news-aggregator.csv", LIMITS["uci-news-aggregator"]).filter((r) => coffee.test(r.TITLE)).length +
      csvRows("abcnews_au_headlines_sample.csv", LIMITS["abc-au"]).filter((r) => coffee.test(r.headline_text)).length;
    expect(expected).toBeGreaterThan(0);
    const { body } = await get("/search?q=cofee&limit=100");
    expect(body.data.corrected_query).toBe("coffee");
    expect(body.data.total_results).toBe(expected);
  });

  it("filters by source and date range, counting as the file does", async () => {
    const expected = huffpostByLink.filter((r) => r.date >= "2022-09-01" && r.date <= "2022-09-10").length;
    const { body } = await get("/search?sources=huffpost&from=2022-09-01&to=2022-09-10&limit=100");
    expect(body.data.total_results).toBe(expected);
    expect(body.data.articles.every((a: { published_at: string }) => a.published_at >= "2022-09-01" && a.published_at < "2022-09-11")).toBe(true);
  });

  it("filters by domain and by category, with facet counts", async () => {
    const domain = await get("/search?domains=www.huffpost.com&limit=1");
    expect(domain.body.data.total_results).toBe(new Set(huffpost.map((r) => r.link)).size);
    const politics = huffpostByLink.filter((r) => r.category === "POLITICS").length;
    const { body } = await get("/search?category=politics&facets=true&limit=1");
    expect(body.data.total_results).toBe(politics);
    expect(body.data.facets.category).toEqual([{ value: "politics", count: politics }]);
    const topic = await get("/search?topic=politics&limit=1");
    expect(topic.body.data.total_results).toBe(politics);
  });

  it("lists every article unfiltered, or filtered by what every article has, as a filter that keeps every one does", async () => {
    const unfiltered = "/search?facets=true&limit=100";
    const keepingAll = "/search?from=1900-01-01&facets=true&limit=100";
    for (const [one, other] of [
      [unfiltered, keepingAll],
      [`${unfiltered}&sort_by=popularity`, `${keepingAll}&sort_by=popularity`],
      // Every article of the catalogue is in English: the filter tests nothing, and is dropped as such.
      [`${unfiltered}&language=en`, `${keepingAll}&language=en`],
    ]) {
      const [all, same] = await Promise.all([get(one), get(other)]);
      expect(all.status).toBe(200);
      expect({ ...all.body.data, next_cursor: "" }).toEqual({ ...same.body.data, next_cursor: "" });
      const [allNext, sameNext] = await Promise.all([
        get(`${one}&cursor=${encodeURIComponent(all.body.data.next_cursor)}`),
        get(`${other}&cursor=${encodeURIComponent(same.body.data.next_cursor)}`),
      ]);
      expect(allNext.body.data.articles).toEqual(sameNext.body.data.articles);
    }
    const { body } = await get(unfiltered);
    expect(body.data.facets.source).toContainEqual({ value: "huffpost", count: huffpostByLink.length });
  });

  it("filters by several values of a list, newest first across them, counting as the file does", async () => {
    const wanted = new Set(["SPORTS", "CRIME"]);
    const expected = huffpostByLink.filter((r) => wanted.has(r.category)).length;
    const first = await get("/search?sources=huffpost&category=sports,crime&limit=100");
    expect(first.body.data.total_results).toBe(expected);
    const second = await get(`/search?sources=huffpost&category=sports,crime&limit=100&cursor=${encodeURIComponent(first.body.data.next_cursor)}`);
    const articles: { url: string; category: string; published_at: string }[] = [...first.body.data.articles, ...second.body.data.articles];
    expect(articles).toHaveLength(Math.min(200, expected));
    expect(new Set(articles.map((a) => a.url)).size).toBe(articles.length);
    expect(articles.every((a) => a.category === "sports" || a.category === "crime")).toBe(true);
    const dates = articles.map((a) => a.published_at);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it("excludes a word with -word", async () => {
    const all = await get("/search?q=trump&limit=1");
    const without = await get("/search?q=trump%20-biden&limit=100");
    expect(without.body.data.total_results).toBeLessThan(all.body.data.total_results);
    for (const a of without.body.data.articles) expect(`${a.title} ${a.description ?? ""}`).not.toMatch(/\bbiden/i);
  });

  it("sorts by popularity: the largest UCI story first", async () => {
    const sizes = new Map<string, number>();
    for (const r of csvRows("uci-news-aggregator.csv", LIMITS["uci-news-aggregator"])) sizes.set(r.STORY, (sizes.get(r.STORY) ?? 0) + 1);
    const { body } = await get("/search?sort_by=popularity&limit=1");
    expect(body.data.articles[0].popularity).toBe(Math.max(...sizes.values()));
  });

  it("answers an empty result when nothing matches", async () => {
    const { status, body } = await get("/search?q=qqxjzv");
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ total_results: 0, next_cursor: null, articles: [] });
  });

  it("refuses bad parameters with the field named", async () => {
    for (const url of [
      "/search?limit=101",
      "/search?limit=0",
      "/search?from=yesterday",
      "/search?sort_by=random",
      "/search?sort_by=relevancy",
      "/search?from=2022-02-02&to=2022-01-01",
    ]) {
      const { status, body } = await get(url);
      expect(status, url).toBe(400);
      expect(body.error.code).toBe("VALIDATION_ERROR");
    }
  });
});

describe("pagination", () => {
  it("walks every page of a country to the last one, and refuses foreign or forged cursors", async () => {
    const expected = new Set(csvRows("abcnews_au_headlines_sample.csv", LIMITS["abc-au"]).map((r) => `${r.publish_date}|${r.headline_text.toLowerCase()}`))
      .size;
    const seen = new Set<string>();
    let cursor: string | null = null;
    let pages = 0;
    do {
      const { body }: { body: { data: { next_cursor: string | null; total_results: number; articles: { id: string }[] } } } = await get(
        `/search?sources=abc-news-au&limit=100${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(body.data.total_results).toBe(expected);
      for (const a of body.data.articles) seen.add(a.id);
      cursor = body.data.next_cursor;
      pages += 1;
    } while (cursor);
    expect(seen.size).toBe(expected);
    expect(pages).toBe(Math.ceil(expected / 100));

    const first = await get("/search?sources=abc-news-au&limit=5");
    const foreign = await get(`/search?country=us&limit=5&cursor=${first.body.data.next_cursor}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.details[0].field).toBe("cursor");
    expect((await get("/top-headlines?country=au&cursor=bm90LWEtY3Vyc29y")).status).toBe(400);
  });
});

describe("GET /top-headlines", () => {
  it("gives the articles of the 24 hours up to the newest one of a country and category, newest first", async () => {
    const politics = huffpostByLink.filter((r) => r.category === "POLITICS");
    const newest = politics
      .map((r) => r.date)
      .sort()
      .at(-1)!;
    // HuffPost dates are days (midnight UTC): the window (newest - 24 h, newest] holds the newest day's articles.
    const expected = politics.filter((r) => r.date === newest);
    const { body } = await get("/top-headlines?country=us&category=politics&limit=100");
    expect(body.data.total_results).toBe(expected.length);
    expect(body.data.articles.map((a: { url: string }) => a.url).sort()).toEqual(expected.map((r) => r.link).sort());
    expect(body.data.selection).toEqual({
      window_start: new Date(Date.parse(`${newest}T00:00:00Z`) - 86_400_000 + 1).toISOString(),
      window_end: `${newest}T00:00:00.000Z`,
      max_results: 100,
    });
  });

  it("refuses a source or a country no article has, naming it", async () => {
    const source = await get("/top-headlines?sources=nonexistent-source");
    expect(source.status).toBe(400);
    expect(source.body.error.details).toEqual([{ field: "sources", issue: expect.stringContaining("nonexistent-source") }]);
    const country = await get("/top-headlines?country=us,zz");
    expect(country.status).toBe(400);
    expect(country.body.error.details[0]).toMatchObject({ field: "country", issue: expect.stringMatching(/: zz \(the catalogue has .*\bus\b/) });
    expect((await get("/search?q=budget&sources=nonexistent-source")).status).toBe(400);
  });

  it("refuses sources mixed with country", async () => {
    const { status, body } = await get("/top-headlines?sources=huffpost&country=us");
    expect(status).toBe(400);
    expect(body.error.details[0].field).toBe("sources");
  });
});

describe("auth", () => {
  it("needs a key, for this service", async () => {
    expect((await get("/search?q=news", {})).status).toBe(401);
    const other = await started.platform.subscribe("time-zone", "PRO");
    expect((await get("/search?q=news", other.headers)).status).toBe(403);
  });
});
