/** GET /channel/{id} over HTTP: a channel's totals at its videos' latest snapshots. */
import { describe, expect, it } from "vitest";
import { allRows, latest, videoUnderTest } from "./helpers.js";

const { get } = videoUnderTest();
const rows = allRows();

describe("GET /channel/{id}", () => {
  it("totals the channel's videos at their latest snapshots", async () => {
    const byChannel = new Map<string, Set<string>>();
    for (const r of rows) {
      const key = r.channel_title.trim().toLowerCase();
      byChannel.set(key, (byChannel.get(key) ?? new Set()).add(r.video_id));
    }
    const [channelKey, videoIds] = [...byChannel].sort((a, b) => b[1].size - a[1].size || a[0].localeCompare(b[0]))[0];
    const latestRows = [...videoIds].map((id) => latest(rows.filter((r) => r.video_id === id)));
    const search = await get(`/search?q=${encodeURIComponent(latestRows[0].title.split(" ").slice(0, 3).join(" "))}&limit=100`);
    const channelId = search.body.data.videos.find((v: { id: string }) => v.id === latestRows[0].video_id).channel.id;
    const { status, body } = await get(`/channel/${channelId}`);
    expect(status).toBe(200);
    expect(body.data.title.toLowerCase()).toBe(channelKey);
    expect(body.data.totals).toEqual({
      videos: videoIds.size,
      views: latestRows.reduce((s, r) => s + r.views, 0),
      likes: latestRows.reduce((s, r) => s + r.likes, 0),
      dislikes: latestRows.reduce((s, r) => s + r.dislikes, 0),
      comments: latestRows.reduce((s, r) => s + r.comments, 0),
    });
    const rates = latestRows.map((r) => (r.likes + r.comments) / r.views);
    expect(body.data.average_engagement_rate).toBeCloseTo(rates.reduce((a, b) => a + b, 0) / rates.length, 5);
    expect(body.data.top_videos[0].metrics.views).toBe(Math.max(...latestRows.map((r) => r.views)));
    expect(body.data.category_mix.reduce((s: number, c: { videos: number }) => s + c.videos, 0)).toBe(videoIds.size);
  });

  it("answers 404 for an unknown channel and 400 for a malformed id", async () => {
    expect((await get("/channel/ch_0000000000000000")).status).toBe(404);
    expect((await get("/channel/UCBR8-60-B28hp2BmDPdntcQ")).status).toBe(400);
  });
});
