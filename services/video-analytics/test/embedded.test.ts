/** The same SQL on the embedded PGlite (with its contrib pg_trgm): every endpoint over a small catalogue. */
import { runIngestion } from "@apiplat/catalogue";
import { startService, type StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { datasetSources } from "../src/ingest/datasets.js";
import service from "../src/service.js";
import { datasetsDir, readRows } from "./helpers.js";

let started: StartedService;
let headers: Record<string, string>;

beforeAll(async () => {
  started = await startService(service, { embedded: true, settings: { autoLoad: false, youtubeApiKey: null }, env: { DATASETS_DIR: datasetsDir } });
  for (const source of datasetSources().filter((s) => ["categories", "trending-us"].includes(s.name))) {
    const summary = await runIngestion(started.platform.deps.db, source, { datasetsDir, limit: 1000, now: () => new Date() });
    expect(summary.status).toBe("succeeded");
  }
  headers = (await started.subscribe("PRO")).headers;
});
afterAll(() => started.close());

describe("video-analytics on PGlite", () => {
  it("answers every endpoint", async () => {
    const row = readRows("us")[0];
    const video = await started.app.inject({ method: "GET", url: `/video/${row.video_id}`, headers });
    expect(video.statusCode).toBe(200);
    const channel = video.json().data.channel.id;
    for (const url of [`/channel/${channel}`, "/search?q=thanksgivng&country=us&category=Entertainment", "/search?sort=growth", "/trending?country=us", "/sources"]) {
      const res = await started.app.inject({ method: "GET", url, headers });
      expect(res.statusCode, url).toBe(200);
    }
  });
});
