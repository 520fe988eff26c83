import { describe, expect, it } from "vitest";
import { EXPLICIT_TERMS } from "../src/domain/pages.js";
import { LIMITS, dumpRows, filmRows, peopleRows, useIndexedService } from "./helpers.js";

const get = useIndexedService();

/** One page per Wikipedia URL: of two rows with one URL (the file has such pairs), the later is kept. */
const films = [...new Map(filmRows().map((f) => [f["Wiki Page"], f])).values()];
const people = peopleRows();
const coffee = dumpRows("coffee", LIMITS["stackexchange-coffee"]);
const beer = dumpRows("beer", LIMITS["stackexchange-beer"]);
const stripTags = (html: string) => html.replace(/<[^>]*>/g, " ");
/** A Stack Exchange question's page: its title, text and tags, and the text of its answers (one page, as on the site). */
const questionPages = (rows: Record<string, string>[]) =>
  rows
    .filter((r) => r.PostTypeId === "1")
    .map((q) =>
      [
        q.Title,
        stripTags(q.Body ?? ""),
        q.Tags ?? "",
        ...rows.filter((a) => a.PostTypeId === "2" && a.ParentId === q.Id).map((a) => stripTags(a.Body ?? "")),
      ].join(" "),
    );
/** Every loaded page's searchable text, as the test reads the files. */
const pageTexts = [
  ...films.map((f) => [f.Title, f.Plot, f.Director, f.Cast, f.Genre].join(" ")),
  ...people.map((p) => `${p.name} ${p.text}`),
  ...questionPages(coffee),
  ...questionPages(beer),
];

describe("GET /search", () => {
  it("finds a film's Wikipedia page with every field as the row has it", async () => {
    const film = films.find((f) => f.Title === "The Great Train Robbery")!;
    const { status, body } = await get(`/search?q=${encodeURIComponent("great train robbery")}`);
    expect(status).toBe(200);
    const result = body.data.organic_results.find((r: { link: string }) => r.link === film["Wiki Page"]);
    expect(result).toMatchObject({
      title: film.Title,
      link: "https://en.wikipedia.org/wiki/The_Great_Train_Robbery_(1903_film)",
      displayed_link: "https://en.wikipedia.org › wiki › The_Great_Train_Robbery_(1903_film)",
      source: "Wikipedia",
    });
    expect(result.date).toBeUndefined();
    expect(film.Plot.replace(/\s+/g, " ")).toContain(result.snippet.split(" … ")[0].slice(0, 40));
    expect(result.snippet_highlighted_words.map((w: string) => w.toLowerCase())).toEqual(expect.arrayContaining(["train"]));
  });

  it("folds a Stack Exchange question and its answers into one result, the question's page", async () => {
    const question = coffee.find((r) => r.Id === "1")!;
    const { body } = await get(`/search?q=${encodeURIComponent("store whole bean coffee")}&num=100`);
    const results = body.data.organic_results as { link: string; title: string }[];
    expect(results[0].link).toBe("https://coffee.stackexchange.com/questions/1");
    // No answer page of its own, and no two results with one title.
    expect(results.filter((r) => /stackexchange\.com\/a\//.test(r.link))).toEqual([]);
    expect(new Set(results.map((r) => r.title)).size).toBe(results.length);
    // A word only an answer has finds its question.
    const answerOnly = coffee
      .filter((r) => r.PostTypeId === "2" && r.ParentId === "1")
      .map((r) => stripTags(r.Body))
      .join(" ");
    const word = [...answerOnly.toLowerCase().matchAll(/[a-z]{9,}/g)]
      .map((m) => m[0])
      .find((w) => !new RegExp(w.slice(0, 7), "i").test(`${question.Title} ${question.Body}`))!;
    const byAnswer = (await get(`/search?q=${word}&num=100`)).body.data.organic_results as { link: string }[];
    expect(byAnswer.map((r) => r.link)).toContain("https://coffee.stackexchange.com/questions/1");
    expect(results.find((r: { link: string }) => r.link === "https://coffee.stackexchange.com/questions/1")).toMatchObject({
      title: question.Title,
      link: "https://coffee.stackexchange.com/questions/1",
      displayed_link: "https://coffee.stackexchange.com › questions › 1",
      date: `${question.CreationDate}Z`,
      source: "Coffee Stack Exchange",
      snippet_highlighted_words: expect.arrayContaining(["coffee"]),
    });
  });

  it("counts every page holding a word, as the files do", async () => {
    const expected = pageTexts.filter((t) => /\bgrandmasters?\b/i.test(t)).length;
    expect(expected).toBeGreaterThan(1);
    const { body } = await get("/search?q=grandmaster&num=100");
    expect(body.data.search_information.total_results).toBe(expected);
    expect(body.data.organic_results).toHaveLength(expected);
    expect(body.data.search_information.showing_results_for).toBeNull();
  });

  it("searches a word some page holds as written, suggesting a common look-alike of a rare misspelling", async () => {
    // "cofee" is in a coffee post: searched as written, with coffee suggested ("Did you mean").
    const { body } = await get("/search?q=cofee");
    expect(body.data.search_information).toMatchObject({
      showing_results_for: null,
      spelling_fix: "coffee",
      total_results: pageTexts.filter((t) => /\bcofee\b/i.test(t)).length,
      query_displayed: "cofee",
    });
    expect(body.data.search_information.total_results).toBeGreaterThan(0);
  });

  it("corrects a word no page holds to the closest word of the index", async () => {
    // A misspelt word no page holds: corrected to the closest word of the index, and counted as the files count it.
    for (const [typo, word, pattern] of [
      ["frankenstien", "frankenstein", /\bfrankenstein\b/i],
      ["saxophonst", "saxophonist", /\bsaxophonists?\b/i],
    ] as const) {
      const { body: corrected } = await get(`/search?q=${typo}`);
      expect(corrected.data.search_information).toMatchObject({ showing_results_for: word, total_results: pageTexts.filter((t) => pattern.test(t)).length });
      expect(corrected.data.search_information.total_results).toBeGreaterThan(0);
    }
  });

  it("pages without overlap, up to the last page, with num at most 100", async () => {
    const first = await get("/search?q=born&num=100");
    const total = first.body.data.search_information.total_results;
    expect(total).toBeGreaterThan(200);
    expect(first.body.data.organic_results.map((r: { position: number }) => r.position)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    const last = Math.ceil(total / 100);
    expect(first.body.data.pagination).toEqual({ current: 1, next: 2, last });
    const lastPage = await get(`/search?q=born&num=100&page=${last}`);
    expect(lastPage.body.data.organic_results).toHaveLength(total - (last - 1) * 100);
    expect(lastPage.body.data.organic_results[0].position).toBe((last - 1) * 100 + 1);
    expect(lastPage.body.data.pagination).toEqual({ current: last, next: null, last });
    const beyond = await get(`/search?q=born&num=100&page=${last + 1}`);
    expect(beyond.body.data.organic_results).toEqual([]);
    expect(beyond.body.data.search_information.total_results).toBe(total);

    const twenty = (await get("/search?q=born&num=20")).body.data.organic_results.map((r: { link: string }) => r.link);
    const pageOne = (await get("/search?q=born&num=10")).body.data.organic_results.map((r: { link: string }) => r.link);
    const pageTwo = (await get("/search?q=born&num=10&page=2")).body.data.organic_results.map((r: { link: string }) => r.link);
    expect([...pageOne, ...pageTwo]).toEqual(twenty);
    const secondPage = (await get("/search?q=born&num=10&page=2")).body.data.organic_results as { snippet: string; snippet_highlighted_words: string[] }[];
    expect(secondPage.every((r) => r.snippet.length > 0 && r.snippet_highlighted_words.length > 0)).toBe(true);

    const tooMany = await get("/search?q=born&num=101");
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details[0].field).toBe("num");
    expect(tooMany.body.error.details[0].issue).toContain("100");
    expect((await get("/search?q=born&num=0")).status).toBe(400);
  });

  it("serves results up to position 10,000 and refuses pages past it", async () => {
    expect((await get("/search?q=born&num=10&page=1000")).status).toBe(200);
    const past = await get("/search?q=born&num=10&page=1001");
    expect(past.status).toBe(400);
    expect(past.body.error.details[0]).toMatchObject({ field: "page" });
    expect(past.body.error.details[0].issue).toContain("at most 1000 with num=10");
    expect((await get("/search?q=born&num=100&page=100")).status).toBe(200);
    expect((await get("/search?q=born&num=100&page=101")).status).toBe(400);
  });

  it("answers a query that matches nothing with an empty page", async () => {
    const { status, body } = await get("/search?q=qxzvkwpj");
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      search_information: { total_results: 0, showing_results_for: null },
      pagination: { current: 1, next: null, last: 1 },
      organic_results: [],
      related_searches: [],
    });
  });

  it("suggests no related search that glues the query to words of pages about only part of it", async () => {
    // Pages about a beer's head height match "height"; none holds all three words.
    expect(pageTexts.filter((t) => /\beiffel\b/i.test(t) && /\btower/i.test(t) && /\bheight/i.test(t))).toEqual([]);
    const { body } = await get(`/search?q=${encodeURIComponent("eiffel tower height")}`);
    expect(body.data.organic_results.length).toBeGreaterThan(0);
    expect(body.data.related_searches).toEqual([]);
  });

  it("suggests related searches from phrases the best results share", async () => {
    const { body } = await get("/search?q=moka%20pot");
    const related = body.data.related_searches as { query: string; link: string }[];
    expect(related.length).toBeGreaterThan(0);
    for (const { query, link } of related) {
      expect(query.startsWith("moka pot ")).toBe(true);
      expect(link).toBe(`/search?q=${encodeURIComponent(query)}`);
    }
    const later = await get("/search?q=moka%20pot&page=2");
    expect(later.status, JSON.stringify(later.body)).toBe(200);
    expect(later.body.data.related_searches).toEqual([]);
  });

  it("safe=active leaves out pages with a word of the explicit-terms list", async () => {
    const explicit = new RegExp(`\\b(${EXPLICIT_TERMS.join("|")})\\b`, "i");
    // English stemming makes "womans" (the people dataset's spelling of woman's) the same word; "women" is another.
    const withWord = pageTexts.filter((t) => /\bwomans?\b/i.test(t));
    const off = await get("/search?q=woman");
    const active = await get("/search?q=woman&safe=active");
    expect(off.body.data.search_information.total_results).toBe(withWord.length);
    expect(active.body.data.search_information.total_results).toBe(withWord.filter((t) => !explicit.test(t)).length);
    expect(active.body.data.search_information.total_results).toBeLessThan(withWord.length);
    expect(active.body.data.search_parameters.safe).toBe("active");
  });

  it("filters by language: every dataset page is English", async () => {
    const all = (await get("/search?q=coffee")).body.data.search_information.total_results;
    expect((await get("/search?q=coffee&language=en")).body.data.search_information.total_results).toBe(all);
    expect((await get("/search?q=coffee&language=fr")).body.data.search_information.total_results).toBe(0);
    const bad = await get("/search?q=coffee&language=english");
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0]).toMatchObject({ field: "language", issue: "must be an ISO 639-1 code such as en" });
  });

  it("refuses a missing or empty query, and a request without a key", async () => {
    expect((await get("/search")).status).toBe(400);
    const punctuation = await get("/search?q=%21%21%21");
    expect(punctuation.status).toBe(400);
    expect(punctuation.body.error.details[0]).toMatchObject({ field: "q", issue: "must contain at least one letter or digit" });
    expect((await get("/search?q=coffee", {})).status).toBe(401);
  });
});
