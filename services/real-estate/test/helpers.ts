/**
 * The real-estate service on the real datasets (King County bounded to its first rows: the whole file takes longer
 * to load than a test should), and the same rows read straight from the files, so that tests compute their
 * expected values independently of the service.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { DatasetView, runIngestion } from "@apiplat/catalogue";
import { loadConfig } from "@apiplat/config";
import { routeGetter, startService, type StartedService } from "@apiplat/testing";
import { parse } from "csv-parse/sync";
import type { Static } from "typebox";
import { datasetSources } from "../src/ingest/datasets.js";
import * as S from "../src/schemas.js";
import service from "../src/service.js";

export const datasetsDir = loadConfig(process.env).datasetsDir;
export const KC_LIMIT = 4000;
const LIMITS: Record<string, number | undefined> = { "king-county-sales": KC_LIMIT };

export async function startRealEstate(options: { sources?: string[] } = {}): Promise<StartedService> {
  const started = await startService(service, { settings: { autoLoad: false } });
  for (const source of datasetSources()) {
    if (options.sources && !options.sources.includes(source.name)) continue;
    const summary = await runIngestion(started.platform.deps.db, source, { datasetsDir, limit: LIMITS[source.name], now: () => new Date() });
    if (summary.status !== "succeeded") throw new Error(`${source.name}: ${summary.error}`);
  }
  return started;
}

function csv(file: string): Record<string, string>[] {
  return parse(readFileSync(path.join(datasetsDir, "real-estate", file)), { columns: true }) as Record<string, string>[];
}

/** Distinct records as the files repeat some (same address, date and price): the last one of a key is kept. */
function distinct(rows: Record<string, string>[], key: (r: Record<string, string>) => string): Record<string, string>[] {
  return [...new Map(rows.map((r) => [key(r), r])).values()];
}

export const kingCounty = () => csv("kc_house_data.csv").slice(0, KC_LIMIT);
export const sacramento = () => distinct(csv("Sacramentorealestatetransactions.csv"), (r) => `${r.street}|${r.zip}|${r.sale_date}|${r.price}`);
export const newYork = () => distinct(csv("NY-House-Dataset.csv"), (r) => `${r.ADDRESS}|${r.STATE}|${r.PRICE}|${r.TYPE}|${r.BROKERTITLE}`);

/** Haversine with the mean Earth radius, written out again here rather than imported. */
export function km(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lon2 - lon1) * r) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(a));
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = (s.length - 1) / 2;
  return (s[Math.floor(mid)] + s[Math.ceil(mid)]) / 2;
}

/** Each route's data, by the path its URL begins with. */
export interface Routes {
  "/search": Static<typeof S.PropertyPage>;
  "/property/": Static<typeof S.PropertyDetail>;
  "/estimate": Static<typeof S.Estimate>;
  "/sources": { datasets: Static<typeof DatasetView>[] };
}

/** GETs typed by their URL's route. */
export const getter = (started: StartedService, headers: Record<string, string>) => routeGetter<Routes>(started, headers);
