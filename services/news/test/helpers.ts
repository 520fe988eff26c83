/**
 * The news service on a catalogue of bounded subsets of the real datasets (the first rows of each file: full files
 * take longer to load than a test should), and the same subsets read straight from the files, so that tests compute
 * their expected values independently of the service.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { runIngestions } from "@apiplat/catalogue";
import { loadConfig } from "@apiplat/config";
import { startService, type StartedService } from "@apiplat/testing";
import { parse } from "csv-parse/sync";
import { datasetSources } from "../src/ingest/datasets.js";
import service from "../src/service.js";

export const datasetsDir = loadConfig(process.env).datasetsDir;
export const LIMITS: Record<string, number> = { huffpost: 3000, "uci-news-aggregator": 2000, "abc-au": 2000, "times-of-india": 500 };

export async function startNews(options: Record<string, never> = {}): Promise<StartedService> {
  const started = await startService(service, {
    settings: { autoLoad: false, feeds: [] },
    env: { DATASETS_DIR: datasetsDir },
  });
  // One run per source, their shared finish once after the last: as `npm run ingest` does.
  const summaries = await runIngestions(started.platform.deps.db, datasetSources(), { datasetsDir, limits: LIMITS, now: () => new Date() });
  const failed = summaries.find((summary) => summary.status !== "succeeded");
  if (failed) throw new Error(`${failed.source}: ${failed.error}`);
  return started;
}

export interface HuffPostRow {
  link: string;
  headline: string;
  category: string;
  short_description: string;
  authors: string;
  date: string;
}

export function huffPostRows(): HuffPostRow[] {
  return readFileSync(path.join(datasetsDir, "news/News_Category_Dataset_v3.json"), "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .slice(0, LIMITS.huffpost)
    .map((line) => JSON.parse(line) as HuffPostRow);
}

export function csvRows(file: string, limit: number): Record<string, string>[] {
  return (parse(readFileSync(path.join(datasetsDir, "news", file)), { columns: true, relax_column_count: true }) as Record<string, string>[]).slice(0, limit);
}
