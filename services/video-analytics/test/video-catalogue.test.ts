/** The in-memory catalogue answers from the catalogue's newest version: an ingestion run is seen by the next search. */
import { pageOf, prepareTextQuery } from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import type { StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findVideos, videoCatalogue, type VideoCatalogue } from "../src/store/video-catalogue.js";
import { startVideo } from "./helpers.js";

let started: StartedService;
let db: Queryable;
let catalogue: VideoCatalogue;

beforeAll(async () => {
  started = await startVideo();
  db = started.platform.deps.db;
  catalogue = videoCatalogue(db);
}, 180_000);

afterAll(async () => {
  await started?.close();
});

describe("the in-memory catalogue", () => {
  it("sees an ingestion run at once", async () => {
    const text = { query: await prepareTextQuery(db, "zyzzyvas") };
    const before = await findVideos(catalogue, { text }, "relevance", pageOf({}));
    expect(before.total).toBe(0);
    await db.query(
      `INSERT INTO videos (video_id, title, category_id, category_country, revision, latest_views, countries)
       VALUES ('zyzzyvas001', 'Zyzzyvas everywhere', 10, 'us', 1, 9999999999, '{zz}')`,
    );
    await db.query("INSERT INTO ingest_runs (source, started_at, finished_at, status, changed_catalogue) VALUES ('test', now(), now(), 'succeeded', true)");
    const after = await findVideos(catalogue, { text }, "relevance", pageOf({}));
    expect(after.videos.map((v) => v.video_id)).toEqual(["zyzzyvas001"]);
    const listed = await findVideos(catalogue, { country: "zz" }, "views", pageOf({}));
    expect(listed.videos.map((v) => v.video_id)).toEqual(["zyzzyvas001"]);
  });
});
