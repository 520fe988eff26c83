/**
 * The service on an index of bounded subsets of the real datasets (the first records of each file: full files take
 * longer to load than a test should), and the same subsets read straight from the files with parsers of the test's
 * own, so that expected values are computed independently of the service.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { runIngestions } from "@apiplat/catalogue";
import { loadConfig } from "@apiplat/config";
import { startService, type StartedService } from "@apiplat/testing";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll } from "vitest";
import { datasetSources } from "../src/ingest/datasets.js";
import service from "../src/service.js";

export const datasetsDir = loadConfig(process.env).datasetsDir;
export const LIMITS: Record<string, number> = {
  "wikipedia-films": 400,
  "wikipedia-people": 600,
  "stackexchange-coffee": 600,
  "stackexchange-beer": 300,
  "coco-images": 400,
  "coco-captions": 4000,
  "news-huffpost": 800,
  "news-uci": 400,
};

export async function startIndexed(options: { limits?: Record<string, number> } = {}): Promise<StartedService> {
  const started = await startService(service, { settings: { autoLoad: false }, env: { DATASETS_DIR: datasetsDir } });
  // One run per source, their shared finish (vocabulary, statistics) once after the last: as `npm run ingest` does.
  const summaries = await runIngestions(started.platform.deps.db, datasetSources(), { datasetsDir, limits: options.limits ?? LIMITS, now: () => new Date() });
  const failed = summaries.find((summary) => summary.status !== "succeeded");
  if (failed) throw new Error(`${failed.source}: ${failed.error}`);
  return started;
}

/**
 * The indexed service for one test file, started before its tests and closed after them. `get` asks it as a PRO
 * subscriber, or with the headers given ({} for none).
 */
export function useIndexedService(): (url: string, headers?: Record<string, string>) => Promise<{ status: number; body: any }> {
  let started: StartedService | undefined;
  let subscriber: Record<string, string> = {};
  beforeAll(async () => {
    started = await startIndexed();
    subscriber = (await started.subscribe("PRO")).headers;
  });
  afterAll(() => started?.close());
  return async (url, headers = subscriber) => {
    const res = await started!.app.inject({ method: "GET", url, headers });
    return { status: res.statusCode, body: res.json() };
  };
}

function csvRows(file: string, limit: number): Record<string, string>[] {
  return (parse(readFileSync(path.join(datasetsDir, file)), { columns: true, relax_column_count: true, bom: true }) as Record<string, string>[]).slice(
    0,
    limit,
  );
}

export const filmRows = () => csvRows("search-results/web/wiki_movie_plots_sample.csv", LIMITS["wikipedia-films"]);
export const peopleRows = () => csvRows("search-results/web/people_wiki_sample.csv", LIMITS["wikipedia-people"]);

/** The `<row>` elements of a Stack Exchange dump, attributes decoded (the test's own reading). */
export function dumpRows(site: "coffee" | "beer", limit: number): Record<string, string>[] {
  const text = readFileSync(path.join(datasetsDir, `search-results/web/stackexchange_${site}_Posts.xml`), "utf8");
  const decode = (value: string) =>
    value
      .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
      .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
  return [...text.matchAll(/<row ([^\n]*?)\/>/g)]
    .slice(0, limit)
    .map((m) => Object.fromEntries([...m[1].matchAll(/(\w+)="([^"]*)"/g)].map((a) => [a[1], decode(a[2])])));
}

export interface Coco {
  images: { id: number; file_name: string; coco_url: string; flickr_url: string; width: number; height: number; license: number }[];
  annotations: { id: number; image_id: number; caption: string }[];
  licenses: { id: number; name: string; url: string }[];
}

export function coco(): Coco {
  const all = JSON.parse(readFileSync(path.join(datasetsDir, "search-results/images/coco_captions_val2017.json"), "utf8")) as Coco;
  return { licenses: all.licenses, images: all.images.slice(0, LIMITS["coco-images"]), annotations: all.annotations.slice(0, LIMITS["coco-captions"]) };
}

export function huffPostRows(): { link: string; headline: string; short_description: string; date: string }[] {
  return readFileSync(path.join(datasetsDir, "news/News_Category_Dataset_v3.json"), "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .slice(0, LIMITS["news-huffpost"])
    .map((line) => JSON.parse(line));
}

export const uciRows = () => csvRows("news/uci-news-aggregator.csv", LIMITS["news-uci"]);
