import { describe, expect, it } from "vitest";
import { readRows, videoUnderTest, type Row } from "./helpers.js";

const { get } = videoUnderTest();
const us = readRows("us");

const DAY = 86_400_000;

/** Views per day since the previous US snapshot, or since publication for the first one (at least a day). */
function velocities(day: string): { id: string; velocity: number }[] {
  return us
    .filter((r) => r.day === day)
    .map((r) => {
      const before = us.filter((p: Row) => p.video_id === r.video_id && p.day < day).sort((a, b) => b.day.localeCompare(a.day))[0];
      const velocity = before
        ? (r.views - before.views) / Math.max((Date.parse(day) - Date.parse(before.day)) / DAY, 1)
        : r.views / Math.max((Date.parse(`${day}T00:00:00Z`) - Date.parse(r.publish_time)) / DAY, 1);
      return { id: r.video_id, velocity };
    })
    .sort((a, b) => b.velocity - a.velocity || a.id.localeCompare(b.id));
}

describe("GET /trending", () => {
  it("ranks the newest day by view velocity, with rank changes against the previous day", async () => {
    const days = [...new Set(us.map((r) => r.day))].sort();
    const [previous, newest] = days.slice(-2);
    const today = velocities(newest);
    const yesterday = velocities(previous).map((v) => v.id);
    const { status, body } = await get("/trending?country=us&limit=5");
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ country: "us", date: newest, previous_date: previous, total_results: today.length });
    expect(body.data.videos.map((v: { video: { id: string } }) => v.video.id)).toEqual(today.slice(0, 5).map((v) => v.id));
    const first = body.data.videos[0];
    expect(first.trending_score).toBeCloseTo(today[0].velocity, 1);
    const before = yesterday.indexOf(first.video.id);
    expect(first.previous_rank).toBe(before === -1 ? null : before + 1);
    expect(first.rank_change).toBe(before === -1 ? null : before + 1 - 1);
    // The day's counts are the file's row of that day, dislikes included.
    const row = us.filter((r) => r.video_id === first.video.id && r.day === newest).sort((a, b) => b.views - a.views)[0];
    expect(first.day_metrics).toEqual({ as_of: newest, views: row.views, likes: row.likes, dislikes: row.dislikes, comments: row.comments });
  });

  it("gives a video's day the same counts in day_metrics as in its metrics when that day is its latest", async () => {
    const { body } = await get("/trending?country=us&limit=100");
    const same = (body.data.videos as { video: { metrics: Record<string, unknown> }; day_metrics: Record<string, unknown> }[]).filter(
      (v) => v.video.metrics.as_of === v.day_metrics.as_of && v.video.metrics.views === v.day_metrics.views,
    );
    expect(same.length).toBeGreaterThan(0);
    for (const v of same) expect(v.day_metrics.dislikes).toBe(v.video.metrics.dislikes);
  });

  it("refuses a category id no video of the data has", async () => {
    const { status, body } = await get("/trending?country=us&category=999");
    expect(status).toBe(400);
    expect(body.error.details[0]).toMatchObject({ field: "category", issue: expect.stringContaining("999") });
    expect((await get("/search?q=music&category=999")).status).toBe(400);
    const music = us.find((r) => r.category_id === 10)!;
    expect((await get("/trending?country=us&category=10")).status).toBe(200);
    expect(music).toBeDefined();
  });

  it("takes a day in the data and pages to its end", async () => {
    const count = us.filter((r) => r.day === "2017-11-20").length;
    const page = await get(`/trending?country=US&date=2017-11-20&limit=100`);
    const last = await get(`/trending?country=US&date=2017-11-20&limit=100&cursor=${page.body.data.next_cursor}`);
    expect(page.body.data.videos.length + last.body.data.videos.length).toBe(count);
    expect(last.body.data.next_cursor).toBeNull();
    expect(last.body.data.videos[0].rank).toBe(101);
  });

  it("answers 404 naming the countries that have data, and for a day outside the data", async () => {
    const { status, body } = await get("/trending?country=de");
    expect(status).toBe(404);
    expect(body.error.message).toContain("ca, gb, us");
    expect((await get("/trending?country=us&date=2019-01-01")).status).toBe(404);
    expect((await get("/trending?country=usa")).status).toBe(400);
    expect((await get("/trending")).status).toBe(400);
  });
});
