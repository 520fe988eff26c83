import { describe, expect, it } from "vitest";
import { parseTzif, TzifError } from "../../src/domain/tzif.js";
import { ZoneRules } from "../../src/domain/zone-rules.js";
import { at, tzif } from "../helpers.js";

const utc = (text: string) => Date.parse(text) / 1000;

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
