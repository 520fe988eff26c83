import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { buildGeocodingIndex, type GeocodingIndex } from "../domain/build.js";
import { Gazetteer } from "../domain/gazetteer.js";
import { PlaceSearch } from "../domain/search.js";
import { defaultGazetteerFiles, readGazetteerSource, readLocalizedNames, type GazetteerFiles } from "./geonames-files.js";
import { readSnapshot, snapshotPath, writeSnapshot } from "./index-snapshot.js";
import { DEFAULT_SNAPSHOT_DIR } from "./snapshot-dir.js";

interface IndexLoadOptions {
  /** Where the built index is saved and reloaded from; null builds from the files every time, in this process. */
  snapshotDir?: string | null;
}

/**
 * The index from a saved snapshot when one matches the files and the code; else a child process
 * builds it from the files and saves the snapshot, which is then read (in-process build if the child
 * fails). buildMs covers everything.
 */
export function loadGeocodingIndex(files: GazetteerFiles = defaultGazetteerFiles(), options: IndexLoadOptions = {}): GeocodingIndex {
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
