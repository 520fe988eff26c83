import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { civilToSeconds } from "../../src/domain/civil.js";
import { readCountryNames, readZiIndex, readZoneTab, ZoneDatabase, ZoneDatabaseError } from "../../src/zoneinfo/zone-database.js";

const at = (year: number, month: number, day: number, hour = 0, minute = 0) => civilToSeconds({ year, month, day, hour, minute, second: 0 });

/** A hand-made TZif file: `version` 1 or 2, two types, one transition at `transitionAt`. */
function tzif(version: 1 | 2, transitionAt: number, footer = ""): Buffer {
  const header = (timeCount: number) => {
    const h = Buffer.alloc(44);
    h.write("TZif", 0, "latin1");
    h[4] = version === 1 ? 0 : 0x32;
    [0, 0, 0, timeCount, 2, 8].forEach((count, i) => h.writeUInt32BE(count, 20 + i * 4));
    return h;
  };
  const block = (timeSize: 4 | 8) => {
    const time = Buffer.alloc(timeSize);
    if (timeSize === 8) time.writeBigInt64BE(BigInt(transitionAt));
    else time.writeInt32BE(Math.min(transitionAt, 2 ** 31 - 1)); // version 1 data cannot say 2100; readers skip it
    const types = Buffer.alloc(12);
    types.writeInt32BE(0, 0);
    types[5] = 0;
    types.writeInt32BE(3600, 6);
    types[10] = 1;
    types[11] = 4;
    return Buffer.concat([time, Buffer.from([1]), types, Buffer.from("AAA\0BBB\0", "latin1")]);
  };
  if (version === 1) return Buffer.concat([header(1), block(4)]);
  return Buffer.concat([header(1), block(4), header(1), block(8), Buffer.from(`\n${footer}\n`, "latin1")]);
}

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
