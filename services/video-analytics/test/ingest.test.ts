import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { runIngestion } from "@apiplat/catalogue";
import { createOutboundClient } from "@apiplat/outbound-guard";
import { startService, type StartedService } from "@apiplat/testing";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { datasetSources } from "../src/ingest/datasets.js";
import { youtubeSource, type ApiVideo } from "../src/ingest/youtube.js";
import service from "../src/service.js";
import { datasetsDir } from "./helpers.js";

let started: StartedService;
beforeAll(async () => {
  started = await startService(service, { settings: { autoLoad: false, youtubeApiKey: null }, env: { DATASETS_DIR: datasetsDir } });
});
afterAll(() => started.close());

const context = { datasetsDir, now: () => new Date() };
const source = (name: string) => datasetSources().find((s) => s.name === name)!;

describe("dataset ingestion", () => {
  it("skips the damaged rows of the India file with their reasons, and a re-run changes nothing", async () => {
    const records = parse(readFileSync(path.join(datasetsDir, "video-analytics/INvideos.csv")), {
      columns: true,
      relax_quotes: true,
      relax_column_count: true,
    }) as Record<string, string>[];
    const damaged = records.filter((r) => !/^[A-Za-z0-9_-]{11}$/.test(r.video_id));
    expect(damaged.length).toBeGreaterThan(0);
    const first = await runIngestion(started.platform.deps.db, source("trending-in"), context);
    expect(first).toMatchObject({ status: "succeeded", rows_read: records.length, rows_skipped: damaged.length });
    expect(first.skipped[0].reason).toBe(`video_id "${damaged[0].video_id}" is not an 11-character YouTube id`);
    const again = await runIngestion(started.platform.deps.db, source("trending-in"), context);
    expect(again).toMatchObject({ inserted: 0, updated: 0, rows_skipped: damaged.length });
  });
});

/** Resources shaped as https://developers.google.com/youtube/v3/docs/videos#resource documents them. */
function apiVideo(id: string, title: string, views: number): ApiVideo {
  return {
    id,
    snippet: {
      publishedAt: "2026-11-24T08:00:00Z",
      channelId: "UCxxxxxxxxxxxxxxxxxxxxxx",
      title,
      description: "A live test video.",
      thumbnails: { default: { url: `https://i.ytimg.com/vi/${id}/default.jpg`, width: 120, height: 90 } },
      channelTitle: "Loopback Studio",
      tags: ["loopback", "live"],
      categoryId: "24",
    },
    statistics: { viewCount: String(views), likeCount: "1000", commentCount: "250" },
  };
}

describe("YouTube Data API v3 adapter", () => {
  let api: Server;
  let base = "";
  const calls: URLSearchParams[] = [];
  beforeAll(async () => {
    api = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://localhost");
      calls.push(url.searchParams);
      if (url.pathname !== "/youtube/v3/videos" || url.searchParams.get("key") !== "test-key") return res.writeHead(403).end();
      const page = url.searchParams.get("pageToken");
      const body =
        url.searchParams.get("chart") === "mostPopular"
          ? page
            ? { kind: "youtube#videoListResponse", items: [apiVideo("bbbbbbbbbbb", "Second page video", 5_000)] }
            : {
                kind: "youtube#videoListResponse",
                nextPageToken: "CAEQAA",
                items: [apiVideo("aaaaaaaaaaa", "Loopback launch", 20_000), { id: "bad", snippet: {} }],
              }
          : { kind: "youtube#videoListResponse", items: [] };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(api.address() as AddressInfo).port}/youtube/v3`;
  });
  afterAll(() => new Promise<void>((resolve) => api.close(() => resolve())));

  it("stores the mostPopular chart as snapshots with positions, through the guard, within the quota", async () => {
    const live = youtubeSource({ apiKey: "test-key", regions: ["US"], base, dailyQuota: 3, outbound: createOutboundClient({ allowCidrs: ["127.0.0.0/8"] }) });
    const now = () => new Date("2026-11-25T12:00:00Z");
    const summary = await runIngestion(started.platform.deps.db, live, { datasetsDir, now });
    expect(summary).toMatchObject({ status: "succeeded", rows_read: 3, inserted: 2, rows_skipped: 1 });
    expect(calls.map((c) => c.get("chart"))).toEqual(["mostPopular", "mostPopular"]);
    expect(calls[0].get("regionCode")).toBe("US");

    const { headers } = await started.subscribe("PRO");
    const res = await started.app.inject({ method: "GET", url: "/video/aaaaaaaaaaa", headers });
    expect(res.json().data).toMatchObject({
      title: "Loopback launch",
      channel: { title: "Loopback Studio" },
      metrics: { as_of: "2026-11-25", views: 20_000, likes: 1000, dislikes: null, comments: 250 },
      analytics: { engagement_rate: 0.0625, countries: ["us"], peak_rank: 1 },
      tags: ["loopback", "live"],
    });
    const trending = await started.app.inject({ method: "GET", url: "/trending?country=us&date=2026-11-25", headers });
    expect(trending.json().data.videos.map((v: { video: { id: string } }) => v.video.id)).toEqual(["aaaaaaaaaaa", "bbbbbbbbbbb"]);

    // The two chart pages spent 2 of the 3 units of the day: the next round reads its first page, then stops.
    calls.length = 0;
    const spent = await runIngestion(started.platform.deps.db, live, { datasetsDir, now });
    expect(calls).toHaveLength(1);
    expect(spent.skipped.map((s) => s.reason)).toEqual([
      '"bad" is not a video id',
      "region US: the YouTube API's daily quota is spent; the next fetch waits for the next UTC day",
    ]);
  });
});
