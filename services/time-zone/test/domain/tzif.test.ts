import { describe, expect, it } from "vitest";
import { civilToSeconds } from "../../src/domain/civil.js";
import { parseTzif, TzifError } from "../../src/domain/tzif.js";
import { ZoneRules } from "../../src/domain/zone-rules.js";

const utc = (text: string) => Date.parse(text) / 1000;

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

describe("TZif files", () => {
  it("reads a version 1 file", () => {
    const data = parseTzif(tzif(1, 1000));
    expect(data).toEqual({
      version: 1,
      transitionTimes: [1000],
      transitionTypes: [1],
      types: [
        { offsetSeconds: 0, isDst: false, abbreviation: "AAA" },
        { offsetSeconds: 3600, isDst: true, abbreviation: "BBB" },
      ],
      footer: "",
    });
    const rules = new ZoneRules(data);
    expect([rules.typeAt(999).abbreviation, rules.typeAt(1000).abbreviation, rules.transitionAfter(1000)]).toEqual(["AAA", "BBB", null]);
  });

  it("reads 64-bit times beyond 2038 and the footer of a version 2 file", () => {
    const far = utc("2100-01-01T00:00:00Z");
    const data = parseTzif(tzif(2, far, "BBB-1"));
    expect([data.version, data.transitionTimes, data.footer]).toEqual([2, [far], "BBB-1"]);
  });

  it("refuses what is not TZif", () => {
    expect(() => parseTzif(Buffer.from("not a zone file at all, just some text padding it out"))).toThrow(TzifError);
    expect(() => parseTzif(Buffer.alloc(10))).toThrow(TzifError);
  });
});
