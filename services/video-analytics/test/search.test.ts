import { describe, expect, it } from "vitest";
import { allRows, latest, videoUnderTest } from "./helpers.js";

const { get } = videoUnderTest();
const rows = allRows();

const latestByVideo = () => {
  const grouped = new Map<string, typeof rows>();
  for (const r of rows) grouped.set(r.video_id, [...(grouped.get(r.video_id) ?? []), r]);
  return [...grouped.values()].map(latest);
};

describe("GET /search", () => {
  it("filters by country and minimum views, sorted by views, walking every page", async () => {
    const gbVideos = new Set(rows.filter((r) => r.country === "gb").map((r) => r.video_id));
    const expected = latestByVideo().filter((r) => gbVideos.has(r.video_id) && r.views >= 1_000_000);
    let cursor: string | null = null;
    const seen: { id: string; metrics: { views: number } }[] = [];
    do {
      const { body }: { body: { data: { total_results: number; next_cursor: string | null; videos: { id: string; metrics: { views: number } }[] } } } =
        await get(`/search?country=gb&min_views=1000000&sort=views&limit=100${cursor ? `&cursor=${cursor}` : ""}`);
      expect(body.data.total_results).toBe(expected.length);
      seen.push(...body.data.videos);
      cursor = body.data.next_cursor;
    } while (cursor);
    expect(seen.map((v) => v.id).sort()).toEqual(expected.map((r) => r.video_id).sort());
    const views = seen.map((v) => v.metrics.views);
    expect(views).toEqual([...views].sort((a, b) => b - a));
  });

  it("finds a video by words of its title and carries its analytics summary", async () => {
    const row = latest(rows.filter((r) => r.video_id === rows[0].video_id));
    const { body } = await get(`/search?q=${encodeURIComponent(`"${row.title.replace(/"/g, "")}"`)}&limit=5`);
    const found = body.data.videos.find((v: { id: string }) => v.id === row.video_id);
    expect(found.metrics.views).toBe(row.views);
    expect(found.analytics.engagement_rate).toBeCloseTo((row.likes + row.comments) / row.views, 6);
  });

  it("corrects a misspelt word", async () => {
    const { body } = await get("/search?q=thanksgivng");
    expect(body.data.corrected_query).toBe("thanksgiving");
    expect(body.data.total_results).toBeGreaterThan(0);
  });

  it("filters by category name or id alike, and by publication date", async () => {
    const music = latestByVideo().filter((r) => r.category_id === 10);
    expect((await get("/search?category=Music&limit=1")).body.data.total_results).toBe(music.length);
    expect((await get("/search?category=10&limit=1")).body.data.total_results).toBe(music.length);
    const after = music.filter((r) => r.publish_time >= "2017-11-10");
    expect((await get("/search?category=music&published_after=2017-11-10&limit=1")).body.data.total_results).toBe(after.length);
  });

  it("answers an empty list, and 400s for bad input", async () => {
    expect((await get("/search?q=qqxjzvw")).body.data).toMatchObject({ total_results: 0, videos: [], next_cursor: null });
    for (const url of [
      "/search?category=Knitting",
      "/search?sort=likes",
      "/search?min_views=-1",
      "/search?limit=500",
      "/search?cursor=abc",
      "/search?published_after=last-week",
    ]) {
      const { status } = await get(url);
      expect(status, url).toBe(400);
    }
  });
});
