/**
 * The in-memory search against the SQL search it replaces, on the same catalogue: random text searches (words, OR,
 * exclusions, phrases, prefixes, typos) and listings without q, crossed with random filters, sorts and pages, must
 * give the same total and the same videos in the same order.
 */
import { pageOf, prepareTextQuery, type Page } from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import { seededRandom, type StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findVideos, videoCatalogue, type VideoCatalogue } from "../src/store/video-catalogue.js";
import { searchVideos, type VideoFilters, type VideoSort } from "../src/store/videos.js";
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

const WORDS = [
  "music",
  "video",
  "official",
  "trailer",
  "minecraft",
  "christmas",
  "thanksgivng",
  "football",
  "highlights",
  "makeup",
  "tutorial",
  "live",
  "comedy",
  "prank",
  "saturday",
  "night",
  "funny",
  "vlog",
  "challenge",
  "news",
  "trump",
  "song",
  "the",
];
const COUNTRIES = ["us", "gb", "ca", "GB", "fr"];
const CATEGORIES = [10, 24, 22, 17, 25, 1];
const SORTS: VideoSort[] = ["relevance", "views", "engagement", "growth"];

function randomSearch(next: () => number) {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const shapes = [
    () => pick(WORDS),
    () => `${pick(WORDS)} ${pick(WORDS)}`,
    () => `${pick(WORDS)} OR ${pick(WORDS)}`,
    () => `${pick(WORDS)} -${pick(WORDS)}`,
    () => `"${pick(WORDS)} ${pick(WORDS)}"`,
    () => `${pick(WORDS).slice(0, 3)}*`,
  ];
  const day = () => new Date(Date.UTC(2017, 5, 1) + Math.floor(next() * 200) * 86_400_000);
  const filters: Omit<VideoFilters, "text"> = {
    country: next() < 0.3 ? pick(COUNTRIES) : undefined,
    categoryId: next() < 0.3 ? pick(CATEGORIES) : undefined,
    publishedAfter: next() < 0.2 ? day() : undefined,
    publishedBefore: next() < 0.2 ? day() : undefined,
    minViews: next() < 0.2 ? pick([0, 10_000, 250_000, 1_000_000]) : undefined,
  };
  const page: Page = pageOf({ limit: pick([1, 10, 100]) });
  page.offset = pick([0, 0, 5, 40, 400]);
  return { q: pick(shapes)(), filters, sort: pick(SORTS), page };
}

async function expectSameAnswer(filters: VideoFilters, sort: VideoSort, page: Page, label: string): Promise<void> {
  const expected = await searchVideos(db, filters, sort, page);
  const found = await findVideos(catalogue, db, filters, sort, page);
  expect(found.total, label).toBe(expected.total);
  expect(
    found.videos.map((v) => v.video_id),
    label,
  ).toEqual(expected.videos.map((v) => v.video_id));
  expect(found.videos, label).toEqual(expected.videos);
}

describe("the in-memory search", () => {
  it("gives the SQL search's answers for 300 random text searches", async () => {
    const next = seededRandom(23);
    for (let i = 0; i < 300; i++) {
      const { q, filters, sort, page } = randomSearch(next);
      const text = { query: await prepareTextQuery(db, q) };
      await expectSameAnswer({ ...filters, text }, sort, page, `${q} ${JSON.stringify(filters)} ${sort} ${page.offset}+${page.limit}`);
    }
  }, 180_000);

  it("gives the SQL search's answers for 150 random listings without q", async () => {
    const next = seededRandom(41);
    for (let i = 0; i < 150; i++) {
      const { filters, sort, page } = randomSearch(next);
      await expectSameAnswer(filters, sort, page, `${JSON.stringify(filters)} ${sort} ${page.offset}+${page.limit}`);
    }
  }, 180_000);

  it("sees an ingestion run at once", async () => {
    const text = { query: await prepareTextQuery(db, "zyzzyvas") };
    const before = await findVideos(catalogue, db, { text }, "relevance", pageOf({}));
    expect(before.total).toBe(0);
    await db.query(
      `INSERT INTO videos (video_id, title, category_id, category_country, revision, latest_views, countries)
       VALUES ('zyzzyvas001', 'Zyzzyvas everywhere', 10, 'us', 1, 9999999999, '{zz}')`,
    );
    await db.query("INSERT INTO ingest_runs (source, started_at, finished_at, status, changed_catalogue) VALUES ('test', now(), now(), 'succeeded', true)");
    const after = await findVideos(catalogue, db, { text }, "relevance", pageOf({}));
    expect(after.videos.map((v) => v.video_id)).toEqual(["zyzzyvas001"]);
    const listed = await findVideos(catalogue, db, { country: "zz" }, "views", pageOf({}));
    expect(listed.videos.map((v) => v.video_id)).toEqual(["zyzzyvas001"]);
  });
});
