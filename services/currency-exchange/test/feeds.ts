import { readFileSync } from "node:fs";
import path from "node:path";
import { loadConfig } from "@apiplat/config";

/** The recorded real feeds in <datasetsDir>/currency-exchange (read in place, never copied). */
export const FEEDS_DIR = path.join(loadConfig().datasetsDir, "currency-exchange");

export function feed(name: string): Buffer {
  return readFileSync(path.join(FEEDS_DIR, name));
}

/** A small, consistent set of real feeds around 2026-03-18 used by most tests. */
export const FEED_FILES = {
  ecb: "ecb-eurofxref-hist-1999-01-04_2026-04-13.csv",
  ecbDaily: "ecb-eurofxref-daily-2024-02-27.xml",
  ecb90d: "ecb-eurofxref-hist-90d-2023-11-30_2024-02-27.xml",
  nbpA: "nbp-table-a-2026-03-02_2026-03-25.json",
  nbpB: "nbp-table-b-2026-03-04_2026-03-25.json",
  bdi: "bancaditalia-dailyrates-2026-02-11.csv",
  cbr: "cbr-xml-daily-2026-03-18.xml",
  boc: "boc-valet-fx-rates-daily-2026-03-12_2026-03-18.json",
} as const;
