import type { StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS, csvRows, huffPostRows, startNews } from "./helpers.js";

let started: StartedService;
let headers: Record<string, string>;

beforeAll(async () => {
  started = await startNews();
  headers = (await started.subscribe("BASIC")).headers;
});
afterAll(() => started.close());

async function get(url: string) {
  const res = await started.app.inject({ method: "GET", url, headers });
  return { status: res.statusCode, body: res.json() };
}

describe("GET /sources", () => {
  it("lists a publisher with its article count and date range from the file", async () => {
    const abc = csvRows("abcnews_au_headlines_sample.csv", LIMITS["abc-au"]);
    const days = abc.map((r) => r.publish_date).sort();
    const iso = (d: string) => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}T00:00:00.000Z`;
    const { status, body } = await get("/sources?country=au&limit=100");
    expect(status).toBe(200);
    const source = body.data.sources.find((s: { id: string }) => s.id === "abc-news-au");
    expect(source).toEqual({
      id: "abc-news-au",
      name: "ABC News (AU)",
      url: "https://www.abc.net.au/news",
      category: null,
      language: "en",
      country: "au",
      article_count: new Set(abc.map((r) => `${r.publish_date}|${r.headline_text.toLowerCase()}`)).size,
      oldest_published_at: iso(days[0]),
      newest_published_at: iso(days.at(-1)!),
    });
    expect(body.data.sources.every((s: { country: string }) => s.country === "au")).toBe(true);
  });

  it("derives UCI publishers with their host's country", async () => {
    const uci = csvRows("uci-news-aggregator.csv", LIMITS["uci-news-aggregator"]).filter((r) => r.HOSTNAME.endsWith(".co.uk"));
    const publisher = uci[0];
    const { body } = await get("/sources?country=gb&limit=100");
    const found = body.data.sources.find((s: { name: string }) => s.name === publisher.PUBLISHER);
    expect(found).toMatchObject({ country: "gb", language: "en" });
  });

  it("attributes every dataset and shows its latest ingestion run", async () => {
    const { body } = await get("/sources?limit=1");
    const datasets = body.data.datasets as { name: string; licence: string; runs: number; last_run: { status: string; rows_read: number } | null }[];
    expect(datasets.map((d) => d.name)).toEqual(["huffpost", "uci-news-aggregator", "abc-au", "times-of-india", "rss-feeds"]);
    const huffpost = datasets[0];
    expect(huffpost.licence).toBe("CC BY 4.0");
    expect(huffpost.runs).toBe(1);
    expect(huffpost.last_run).toMatchObject({ status: "succeeded", rows_read: huffPostRows().length });
    expect(datasets[4].last_run).toBeNull();
  });

  it("pages the publishers", async () => {
    const first = await get("/sources?limit=2");
    expect(first.body.data.sources).toHaveLength(2);
    const second = await get(`/sources?limit=2&cursor=${first.body.data.next_cursor}`);
    expect(second.body.data.sources[0].id).not.toBe(first.body.data.sources[0].id);
    expect((await get("/sources?cursor=%%%")).status).toBe(400);
  });
});
