import { describe, expect, it } from "vitest";
import { allRows, latest, videoUnderTest } from "./helpers.js";

const video = videoUnderTest();
const { get } = video;
const rows = allRows();

/** The video with the most snapshots in the loaded files. */
function busiestVideo(): string {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.video_id, (counts.get(r.video_id) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0];
}

describe("GET /video/{id}", () => {
  it("gives details, the latest metrics and analytics computed as the rows say", async () => {
    const id = busiestVideo();
    const mine = rows.filter((r) => r.video_id === id);
    const last = latest(mine);
    const { status, body } = await get(`/video/${id}`);
    expect(status).toBe(200);
    const v = body.data;
    expect(v.metrics).toEqual({ as_of: last.day, views: last.views, likes: last.likes, dislikes: last.dislikes, comments: last.comments });
    expect(v.analytics.engagement_rate).toBeCloseTo((last.likes + last.comments) / last.views, 6);
    expect(v.analytics.days_trending).toBe(new Set(mine.map((r) => r.day)).size);
    expect(v.analytics.countries).toEqual([...new Set(mine.map((r) => r.country))].sort());
    expect(v.analytics.peak_rank).toBe(Math.min(...mine.map((r) => r.position)));
    expect(v.published_at).toBe(new Date(last.publish_time).toISOString());
    expect(v.trending.snapshots).toHaveLength(mine.length);

    const us = mine.filter((r) => r.country === "us").sort((a, b) => a.day.localeCompare(b.day));
    const gains = v.trending.daily_gains.filter((g: { country: string }) => g.country === "us");
    expect(gains).toHaveLength(us.length - 1);
    expect(gains[0]).toMatchObject({ from: us[0].day, to: us[1].day, views_gained: us[1].views - us[0].views });
  });

  it("names the category from the country's list and splits the tags", async () => {
    const row = rows.find((r) => r.country === "us" && r.category_id === 10)!;
    const { body } = await get(`/video/${row.video_id}`);
    expect(body.data.category).toEqual({ id: 10, name: "Music" });
    expect(body.data.channel.title).toBe(latest(rows.filter((r) => r.video_id === row.video_id)).channel_title);
  });

  it("answers 404 for an unknown video and 400 for a malformed id", async () => {
    expect((await get("/video/AAAAAAAAAAA")).status).toBe(404);
    const bad = await get("/video/not-an-id");
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("VALIDATION_ERROR");
  });

  it("needs a key for this service", async () => {
    expect((await get(`/video/${busiestVideo()}`, {})).status).toBe(401);
    const other = await video.started.platform.subscribe("news", "PRO");
    expect((await get(`/video/${busiestVideo()}`, other.headers)).status).toBe(403);
  });
});
