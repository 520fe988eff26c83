import type { Env } from "@apiplat/config";
import { defaultGazetteerFiles, type GazetteerFiles } from "./geonames/geonames-files.js";
import { DEFAULT_SNAPSHOT_DIR } from "./geonames/snapshot-dir.js";

export interface GeocodingSettings {
  files: GazetteerFiles;
  /** Where the built index is saved and reloaded from; null builds it from the files at every start. */
  snapshotDir: string | null;
}

export function readSettings(env: Env): GeocodingSettings {
  return { files: gazetteerFilesFrom(env), snapshotDir: snapshotDirFrom(env) };
}

/** Where the gazetteer files are: the bundled packages unless the environment names others. */
export function gazetteerFilesFrom(env: Env): GazetteerFiles {
  const defaults = defaultGazetteerFiles();
  return {
    placesFile: env.GEOCODING_PLACES_FILE || defaults.placesFile,
    admin1File: env.GEOCODING_ADMIN1_FILE || defaults.admin1File,
    localeDir: env.GEOCODING_LOCALE_DIR || defaults.localeDir,
  };
}

/** GEOCODING_SNAPSHOT_DIR: a directory, or "off" to build from the files at every start. */
export function snapshotDirFrom(env: Env): string | null {
  const value = env.GEOCODING_SNAPSHOT_DIR;
  if (value === "off") return null;
  return value || DEFAULT_SNAPSHOT_DIR;
}
