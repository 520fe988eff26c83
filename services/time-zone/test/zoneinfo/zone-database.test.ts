import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { at, tzif } from "../helpers.js";
import { readCountryNames, readZiIndex, readZoneTab, ZoneDatabase, ZoneDatabaseError } from "../../src/zoneinfo/zone-database.js";

describe("zone database", () => {
  it("reads the version, zones and links of tzdata.zi", () => {
    expect(readZiIndex("# version 2026z\nZ Europe/Berlin 0:53:28 - LMT 1893 Ap\nL Europe/Berlin Arctic/Longyearbyen\n")).toEqual({
      version: "2026z",
      zones: ["Europe/Berlin"],
      links: [{ target: "Europe/Berlin", name: "Arctic/Longyearbyen" }],
    });
    expect(() => readZiIndex("Z Europe/Berlin")).toThrow(ZoneDatabaseError);
  });

  it("reads zone.tab rows and iso3166.tab names", () => {
    const tab = readZoneTab("# comment\nDE\t+5230+01322\tEurope/Berlin\tmost of Germany\nNO\t+5955+01045\tEurope/Oslo\n");
    expect([...tab]).toEqual([
      ["Europe/Berlin", [{ countryCode: "DE", comment: "most of Germany" }]],
      ["Europe/Oslo", [{ countryCode: "NO", comment: null }]],
    ]);
    expect([...readCountryNames("#codes\nDE\tGermany\nUA\tUkraine\n")]).toEqual([
      ["DE", "Germany"],
      ["UA", "Ukraine"],
    ]);
  });

  it("fails loudly when the directory holds no tz database, or a zone file is missing or damaged", () => {
    expect(() => ZoneDatabase.load("/nonexistent-zoneinfo")).toThrow(ZoneDatabaseError);
    const dir = mkdtempSync(path.join(tmpdir(), "zoneinfo-"));
    try {
      writeFileSync(path.join(dir, "tzdata.zi"), "# version 2026z\nZ Mars/Olympus 0 - MMT\nZ Mars/Gale 0 - MMT\n");
      expect(() => ZoneDatabase.load(dir)).toThrow(/cannot load zone Mars\/Olympus .*ENOENT/);
      mkdirSync(path.join(dir, "Mars"));
      writeFileSync(path.join(dir, "Mars/Gale"), tzif(2, 1000, "AAA0"));
      writeFileSync(path.join(dir, "Mars/Olympus"), "garbage that is no TZif file at all, long enough for a header");
      expect(() => ZoneDatabase.load(dir)).toThrow(/cannot load zone Mars\/Olympus .*not a TZif file/);
      writeFileSync(path.join(dir, "Mars/Olympus"), tzif(2, 1000, "BBB-1"));
      const db = ZoneDatabase.load(dir);
      expect([db.version, db.entries.map((e) => e.name)]).toEqual(["2026z", ["Mars/Gale", "Mars/Olympus"]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
