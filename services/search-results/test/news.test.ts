import { describe, expect, it } from "vitest";
import { huffPostRows, uciRows, useIndexedService } from "./helpers.js";

const huffpost = huffPostRows();
const uci = uciRows().filter((r) => r.PUBLISHER);

const get = useIndexedService();

describe("GET /news", () => {
  it("finds a HuffPost article with its link, date and description", async () => {
    const row = huffpost[5];
    const { status, body } = await get(`/news?q=${encodeURIComponent(`"${row.headline}"`)}`);
    expect(status).toBe(200);
    expect(body.data.news_results[0]).toEqual({
      position: 1,
      title: row.headline,
      link: row.link,
      source: "HuffPost",
      date: `${row.date}T00:00:00.000Z`,
      snippet: row.short_description || null,
    });
  });

  it("finds a UCI headline with its publisher and time, and no snippet", async () => {
    const row = uci[3];
    const { body } = await get(`/news?q=${encodeURIComponent(`"${row.TITLE}"`)}&num=100`);
    const result = body.data.news_results.find((r: { link: string }) => r.link === row.URL.replace("\\?", "?"));
    expect(result).toMatchObject({ title: row.TITLE, source: row.PUBLISHER, date: new Date(Number(row.TIMESTAMP)).toISOString(), snippet: null });
  });

  it("counts the articles mentioning a word, one per link", async () => {
    const links = new Set([
      ...huffpost.filter((r) => /\bukraine\b/i.test(`${r.headline} ${r.short_description}`)).map((r) => r.link),
      ...uci.filter((r) => /\bukraine\b/i.test(r.TITLE)).map((r) => r.URL),
    ]);
    expect(links.size).toBeGreaterThan(0);
    const { body } = await get("/news?q=ukraine&num=100");
    expect(body.data.search_information.total_results).toBe(links.size);
    expect(body.data.news_results.every((r: { title: string; snippet: string | null }) => /ukrain/i.test(`${r.title} ${r.snippet ?? ""}`))).toBe(true);
  });

  it("answers an empty page for a query that matches nothing, and 400 for num=101", async () => {
    const { body } = await get("/news?q=qxzvkwpj");
    expect(body.data).toMatchObject({ search_information: { total_results: 0 }, news_results: [], pagination: { next: null } });
    expect((await get("/news?q=ukraine&num=101")).status).toBe(400);
  });
});
