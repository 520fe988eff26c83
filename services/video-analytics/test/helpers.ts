/**
 * The service on a catalogue of real files (the categories, the US, GB and CA trending files), and the same files
 * read straight from disk so that tests compute their expectations independently of the service.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { runIngestion } from "@apiplat/catalogue";
import { loadConfig } from "@apiplat/config";
import { startService, type StartedService } from "@apiplat/testing";
import { serviceUnderTest, type ServiceUnderTest } from "@apiplat/testing/service-under-test";
import { parse } from "csv-parse/sync";
import { datasetSources } from "../src/ingest/datasets.js";
import service from "../src/service.js";

export const datasetsDir = loadConfig(process.env).datasetsDir;
export const LOADED = ["categories", "trending-us", "trending-gb", "trending-ca"];

export async function startVideo(): Promise<StartedService> {
  const started = await startService(service, { settings: { autoLoad: false, youtubeApiKey: null }, env: { DATASETS_DIR: datasetsDir } });
  for (const source of datasetSources().filter((s) => LOADED.includes(s.name))) {
    const summary = await runIngestion(started.platform.deps.db, source, { datasetsDir, now: () => new Date() });
    if (summary.status !== "succeeded") throw new Error(`${source.name}: ${summary.error}`);
  }
  return started;
}

export interface VideoUnderTest extends ServiceUnderTest {
  /** A GET as the file's PRO caller (or with `headers`): the status and the parsed envelope. */
  get(url: string, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
}

/** The preamble of the route tests: the service started on the loaded files for the file's tests, one PRO caller. */
export function videoUnderTest(): VideoUnderTest {
  const svc = serviceUnderTest(startVideo);
  return Object.assign(svc, {
    async get(url: string, headers = svc.caller.headers) {
      const res = await svc.started.app.inject({ method: "GET", url, headers });
      return { status: res.statusCode, body: res.json() };
    },
  });
}

export interface Row {
  country: string;
  video_id: string;
  day: string;
  /** Position within the day's rows of its file. */
  position: number;
  title: string;
  channel_title: string;
  category_id: number;
  publish_time: string;
  tags: string;
  description: string;
  views: number;
  likes: number;
  dislikes: number;
  comments: number;
}

export function readRows(country: "us" | "gb" | "ca"): Row[] {
  const file = { us: "USvideos.csv", gb: "GBvideos.csv", ca: "CAvideos.csv" }[country];
  const records = parse(readFileSync(path.join(datasetsDir, "video-analytics", file)), {
    columns: true,
    relax_quotes: true,
    relax_column_count: true,
  }) as Record<string, string>[];
  const positions = new Map<string, number>();
  return records.map((r) => {
    const [yy, dd, mm] = r.trending_date.split(".");
    const day = `20${yy}-${mm}-${dd}`;
    positions.set(day, (positions.get(day) ?? 0) + 1);
    return {
      country,
      video_id: r.video_id,
      day,
      position: positions.get(day)!,
      title: r.title,
      channel_title: r.channel_title,
      category_id: Number(r.category_id),
      publish_time: r.publish_time,
      tags: r.tags,
      description: r.description,
      views: Number(r.views),
      likes: Number(r.likes),
      dislikes: Number(r.dislikes),
      comments: Number(r.comment_count),
    };
  });
}

export const allRows = () => [...readRows("us"), ...readRows("gb"), ...readRows("ca")];

/** The latest snapshot of a video: its newest day, the most viewed on a tie between countries. */
export function latest(rows: Row[]): Row {
  return [...rows].sort((a, b) => b.day.localeCompare(a.day) || b.views - a.views)[0];
}
