/**
 * The server side of a catalogue service's benchmark, in a process of its own: the real platform (PostgreSQL +
 * Redis), gateway auth and metering on, per-second limits off; the datasets
 * ingested into the service's own schema, timed per source; then it listens, prints one JSON line for the driving
 * process and closes cleanly on SIGTERM.
 */
import { runIngestions, type IngestionSource, type IngestRunSummary } from "@apiplat/catalogue";
import { loadConfig } from "@apiplat/config";
import { serviceDatabase, setServiceRuntimeFlags, type ServiceApp, type ServiceManifest } from "@apiplat/service-kit";
import { createTestPlatform, type TestPlatform } from "@apiplat/testing";

export const datasetsDir = loadConfig(process.env).datasetsDir;

/** The platform of a benchmark's service process, which runs with a deployed service's V8 flags. */
export function benchPlatform(): Promise<TestPlatform> {
  setServiceRuntimeFlags();
  return createTestPlatform({ env: { RATE_LIMITS: "off", METERING_FLUSH_MS: "2000", LOG_LEVEL: "silent", DATASETS_DIR: datasetsDir } });
}

export interface IngestTiming {
  source: string;
  rows: number;
  seconds: number;
  rows_per_second: number;
}

/** Ingests every source in turn (their shared finish once, after the last) where the service reads; fails on a failed source. */
export async function ingestForBench(manifest: ServiceManifest<any, any>, platform: TestPlatform, sources: IngestionSource<any, any>[]) {
  const db = await serviceDatabase(manifest, platform.deps.db);
  const started = performance.now();
  const runs: IngestRunSummary[] = await runIngestions(db, sources, { datasetsDir, now: () => new Date() });
  const seconds = (performance.now() - started) / 1000;
  const ingest: IngestTiming[] = runs.map((run) => {
    if (run.status !== "succeeded") throw new Error(`${run.source}: ${run.error}`);
    return {
      source: run.source,
      rows: run.rows_read,
      seconds: (run.finished_at.getTime() - run.started_at.getTime()) / 1000,
      rows_per_second: run.rows_per_second,
    };
  });
  const rows = ingest.reduce((sum, run) => sum + run.rows, 0);
  return { db, ingest, total: { rows, seconds, rows_per_second: Math.round(rows / seconds) } };
}

/** Listens on loopback (each app on a port of its own), prints `announce(ports)` as one JSON line, and closes everything on SIGTERM. */
export async function serveForBench(platform: TestPlatform, apps: ServiceApp[], announce: (ports: number[]) => object): Promise<void> {
  const ports = [];
  for (const app of apps) {
    await app.listen({ host: "127.0.0.1", port: 0 });
    ports.push((app.server.address() as { port: number }).port);
  }
  console.log(JSON.stringify(announce(ports)));
  process.once("SIGTERM", async () => {
    for (const app of apps) await app.close();
    await platform.close();
    process.exit(0);
  });
}
