import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { detectSource, parseFeed } from "../domain/adapters/index.js";
import { addDays } from "../domain/rates.js";
import type { RateTable, SourceId } from "../domain/types.js";
import type { RateStore } from "../store/rate-store.js";

export interface IngestedFile {
  file: string;
  source: SourceId | null;
  tables: number;
  rates: number;
  /** Why the file was skipped: not a feed we read, or a feed that does not parse. */
  skipped?: string;
}

function recentOnly(tables: RateTable[], historyDays: number | null): RateTable[] {
  if (historyDays === null) return tables;
  const newest = tables.reduce((max, t) => (t.date > max ? t.date : max), "");
  const cutoff = addDays(newest, -historyDays);
  return tables.filter((t) => t.date >= cutoff);
}

async function filesOf(target: string): Promise<string[]> {
  const info = await stat(target);
  if (!info.isDirectory()) return [target];
  const entries = await readdir(target, { withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.join(target, e.name))
    .sort();
}

/**
 * Loads recorded or downloaded feed files (or every file of a directory, not recursing) into the store. Each
 * file's format is recognised from its content; files of other formats are reported and skipped.
 */
export async function ingestPaths(
  store: RateStore,
  targets: string[],
  now: () => Date,
  /** Keeps only the tables at most this many days older than the file's newest one (null: all of them). */
  historyDays: number | null = null,
): Promise<IngestedFile[]> {
  const report: IngestedFile[] = [];
  for (const target of targets) {
    for (const file of await filesOf(target)) {
      const body = await readFile(file);
      const source = detectSource(body);
      if (!source) {
        report.push({ file, source, tables: 0, rates: 0, skipped: "not a feed format this service reads" });
        continue;
      }
      try {
        const tables = recentOnly(parseFeed(source, body), historyDays);
        await store.saveTables(tables, `file:${path.basename(file)}`, now());
        report.push({ file, source, tables: tables.length, rates: tables.reduce((n, t) => n + t.rates.length, 0) });
      } catch (error) {
        report.push({ file, source, tables: 0, rates: 0, skipped: (error as Error).message });
      }
    }
  }
  return report;
}
