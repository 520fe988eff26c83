import { createServiceApp, type PlatformDeps, type ServiceApp } from "@apiplat/service-kit";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { defaultGazetteerFiles, readGazetteerSource, readLocalizedNames, type GazetteerFiles } from "./data/geonames-files.js";
import { readSnapshot, snapshotPath, writeSnapshot } from "./data/index-snapshot.js";
import { Gazetteer } from "./domain/gazetteer.js";
import { PlaceSearch } from "./domain/search.js";
import { buildGeocodingIndex, type GeocodingIndex } from "./domain/build.js";
import { registerGeocodingRoutes } from "./routes/geocoding.js";

export interface GeocodingDeps extends PlatformDeps {
  /** Built once per process (it takes seconds) and shared by every app built from it. */
  index: GeocodingIndex;
}

export async function buildApp(deps: GeocodingDeps): Promise<ServiceApp> {
  const app = await createServiceApp({
    service: "geocoding",
    deps,
    description:
      "Forward and reverse geocoding of cities and towns from the GeoNames gazetteer (places of 500+ inhabitants, CC BY 4.0).",
  });
  registerGeocodingRoutes(app, deps.index);
  app.log.info(
    {
      places: deps.index.gazetteer.count,
      names: deps.index.gazetteer.nameIndex.keyCount,
      build_ms: deps.index.buildMs,
      built_from: deps.index.builtFrom,
    },
    "gazetteer index ready",
  );
  return app;
}

/** Where the gazetteer files are: the bundled packages unless the environment names others. */
export function gazetteerFilesFrom(env: Record<string, string | undefined>): GazetteerFiles {
  const defaults = defaultGazetteerFiles();
  return {
    placesFile: env.GEOCODING_PLACES_FILE || defaults.placesFile,
    admin1File: env.GEOCODING_ADMIN1_FILE || defaults.admin1File,
    localeDir: env.GEOCODING_LOCALE_DIR || defaults.localeDir,
  };
}

export interface IndexLoadOptions {
  /** Where the built index is saved and reloaded from; null builds from the files every time, in this process. */
  snapshotDir?: string | null;
}

export const DEFAULT_SNAPSHOT_DIR = join(tmpdir(), "apiplat-geocoding");

/**
 * The index from a saved snapshot when one matches the files and the code; else a child process
 * builds it from the files and saves the snapshot, which is then read (in-process build if the child
 * fails). buildMs covers everything.
 */
export function loadGeocodingIndex(
  files: GazetteerFiles = defaultGazetteerFiles(),
  options: IndexLoadOptions = {},
): GeocodingIndex {
  const started = performance.now();
  const snapshotDir = options.snapshotDir === undefined ? DEFAULT_SNAPSHOT_DIR : options.snapshotDir;
  const snapshot = snapshotDir === null ? undefined : snapshotPath(snapshotDir, files);
  const localizedNames = readLocalizedNames(files.localeDir);
  const ready = (gazetteer: Gazetteer, builtFrom: GeocodingIndex["builtFrom"]): GeocodingIndex => ({
    gazetteer,
    search: new PlaceSearch(gazetteer),
    buildMs: Math.round(performance.now() - started),
    builtFrom,
  });
  if (snapshot === undefined) return ready(Gazetteer.build(readGazetteerSource(files)), "files");
  const saved = readSnapshot(snapshot, localizedNames);
  if (saved !== undefined) return ready(saved, "snapshot");
  const builtByChild = buildSnapshotInChildProcess(files, snapshot) ? readSnapshot(snapshot, localizedNames) : undefined;
  if (builtByChild !== undefined) return ready(builtByChild, "files-in-child-process");
  const index = buildGeocodingIndex(readGazetteerSource(files));
  if (snapshot !== undefined) {
    try {
      writeSnapshot(snapshot, index.gazetteer);
    } catch {
      // A read-only disk costs the next start its seconds, nothing else.
    }
  }
  return { ...index, buildMs: Math.round(performance.now() - started) };
}

/** True when a child process built and saved the snapshot; false sends the caller to build in-process. */
function buildSnapshotInChildProcess(files: GazetteerFiles, snapshot: string): boolean {
  try {
    const tsx = createRequire(import.meta.url).resolve("tsx/cli");
    const script = fileURLToPath(new URL("./build-snapshot.ts", import.meta.url));
    const child = spawnSync(process.execPath, [tsx, script, files.placesFile, files.admin1File, files.localeDir, snapshot], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    return child.status === 0;
  } catch {
    return false;
  }
}

/** GEOCODING_SNAPSHOT_DIR: a directory, or "off" to build from the files at every start. */
export function snapshotDirFrom(env: Record<string, string | undefined>): string | null {
  const value = env.GEOCODING_SNAPSHOT_DIR;
  if (value === "off") return null;
  return value || DEFAULT_SNAPSHOT_DIR;
}

let processIndex: GeocodingIndex | undefined;

export const service = {
  name: "geocoding" as const,
  build: (platform: PlatformDeps) => {
    processIndex ??= loadGeocodingIndex(gazetteerFilesFrom(platform.config.env), {
      snapshotDir: snapshotDirFrom(platform.config.env),
    });
    return buildApp({ ...platform, index: processIndex });
  },
};
