/**
 * Start-up cost of the gazetteer index, in a fresh process: time to get a usable index and the
 * process memory once it is there (RSS right away, and after a few idle seconds and a full GC).
 *   bash scripts/pnpm.sh exec tsx --expose-gc bench/geocoding/startup.ts first-start  # no snapshot yet: a child builds it
 *   bash scripts/pnpm.sh exec tsx --expose-gc bench/geocoding/startup.ts snapshot     # a snapshot exists (made first, untimed)
 *   bash scripts/pnpm.sh exec tsx --expose-gc bench/geocoding/startup.ts in-process   # GEOCODING_SNAPSHOT_DIR=off: build here
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadGeocodingIndex } from "@apiplat/geocoding";

const mode = process.argv[2] ?? "first-start";
if (mode === "prepare") {
  loadGeocodingIndex(undefined, { snapshotDir: process.argv[3] });
  process.exit(0);
}
if (!["first-start", "snapshot", "in-process"].includes(mode)) throw new Error(`unknown mode ${mode}`);
const snapshotDir = mode === "in-process" ? null : mkdtempSync(join(tmpdir(), "geocoding-bench-"));
if (mode === "snapshot") {
  // Made by another process, so that this one's memory holds only what the timed start loads.
  spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), "prepare", snapshotDir!], { stdio: "inherit" });
}

const megabytes = (bytes: number) => Math.round(bytes / 1024 / 1024);
const baseline = process.memoryUsage().rss;
const started = performance.now();
const index = loadGeocodingIndex(undefined, { snapshotDir });
const elapsed = Math.round(performance.now() - started);
const afterBuild = process.memoryUsage();
await new Promise((resolve) => setTimeout(resolve, 5000));
// With --expose-gc, collect the garbage of the build first, so that heap_used is what the index keeps.
(globalThis as { gc?: () => void }).gc?.();
const settled = process.memoryUsage();
if (snapshotDir) rmSync(snapshotDir, { recursive: true, force: true });
console.log(
  JSON.stringify({
    mode,
    built_from: index.builtFrom,
    places: index.gazetteer.count,
    names: index.gazetteer.nameIndex.keyCount,
    ready_ms: elapsed,
    rss_before_mb: megabytes(baseline),
    rss_after_build_mb: megabytes(afterBuild.rss),
    rss_after_5s_idle_and_gc_mb: megabytes(settled.rss),
    heap_used_after_gc_mb: megabytes(settled.heapUsed),
    array_buffers_mb: megabytes(settled.arrayBuffers),
  }),
);
