import type { StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { huffPostRows, startNews } from "./helpers.js";

let started: StartedService;
let headers: Record<string, string>;

beforeAll(async () => {
  started = await startNews();
  headers = (await started.subscribe("PRO")).headers;
});
afterAll(() => started.close());

async function get(url: string) {
  const res = await started.app.inject({ method: "GET", url, headers });
  return { status: res.statusCode, body: res.json() };
}

describe("GET /trending", () => {
  it("ends the window at the newest article in scope and counts its headlines as the file does", async () => {
    const us = [...new Map(huffPostRows().map((r) => [r.link, r])).values()];
    const newest = us
      .map((r) => r.date)
      .sort()
      .at(-1)!;
    const end = Date.parse(`${newest}T00:00:00Z`);
    const day = (r: { date: string }) => Date.parse(`${r.date}T00:00:00Z`);
    const week = 7 * 86_400_000;
    const { status, body } = await get("/trending?window=7d&country=us");
    expect(status).toBe(200);
    expect(body.data.window_end).toBe(`${newest}T00:00:00.000Z`);
    expect(body.data.headlines_in_window).toBe(us.filter((r) => day(r) > end - week && day(r) <= end).length);
    expect(body.data.headlines_in_previous_window).toBe(us.filter((r) => day(r) > end - 2 * week && day(r) <= end - week).length);
    expect(body.data.topics.length).toBeGreaterThan(0);
    for (const topic of body.data.topics) {
      expect(topic.count).toBeGreaterThanOrEqual(3);
      expect(topic.count).toBeGreaterThan(topic.previous_count);
      expect(topic.example_headlines.length).toBeGreaterThan(0);
      const word = topic.topic.toLowerCase().slice(0, 4);
      expect(topic.example_headlines.some((h: { title: string }) => h.title.toLowerCase().includes(word))).toBe(true);
    }
  });

  it("refuses a country or a category no article has, naming it", async () => {
    const { status, body } = await get("/trending?country=zz");
    expect(status).toBe(400);
    expect(body.error.details).toEqual([{ field: "country", issue: expect.stringContaining(": zz (") }]);
    expect((await get("/trending?category=astrology")).body.error.details[0].field).toBe("category");
  });

  it("refuses an unknown window", async () => {
    const { status, body } = await get("/trending?window=1y");
    expect(status).toBe(400);
    expect(body.error.details[0].field).toMatch(/window/);
  });
});
