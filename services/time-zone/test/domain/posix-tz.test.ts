import { describe, expect, it } from "vitest";
import { constantType, parsePosixTz, PosixTzError, transitionsOfYear } from "../../src/domain/posix-tz.js";

const utc = (text: string) => Date.parse(text) / 1000;

describe("POSIX TZ strings", () => {
  it("reads quoted numeric names and fractional offsets", () => {
    const tz = parsePosixTz("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0");
    expect(tz.standard).toEqual({ abbreviation: "+1030", offsetSeconds: 37_800, isDst: false });
    expect(tz.daylight?.type).toEqual({ abbreviation: "+11", offsetSeconds: 39_600, isDst: true });
  });

  it("gives the US rule when DST has no dates, and DST one hour ahead when it has no offset", () => {
    const [start, end] = transitionsOfYear(parsePosixTz("EST5EDT"), 2026);
    expect([start.at, end.at]).toEqual([utc("2026-03-08T07:00:00Z"), utc("2026-11-01T06:00:00Z")]);
    expect(start.type.offsetSeconds).toBe(-14_400);
  });

  it("treats 'starts January 1 00:00, ends December 31 24:00 + save' as DST all year (RFC 8536 3.3.1)", () => {
    const tz = parsePosixTz("EST5EDT,0/0,J365/25");
    expect(transitionsOfYear(tz, 2026)).toEqual([]);
    expect(constantType(tz)).toEqual({ abbreviation: "EDT", offsetSeconds: -14_400, isDst: true });
  });

  it("counts Jn without February 29 and n with it", () => {
    const jn = transitionsOfYear(parsePosixTz("AAA0BBB,J60/0,J300/0"), 2024);
    expect(jn[0].at).toBe(utc("2024-03-01T00:00:00Z"));
    const n = transitionsOfYear(parsePosixTz("AAA0BBB,59/0,300/0"), 2024);
    expect(n[0].at).toBe(utc("2024-02-29T00:00:00Z"));
  });

  it("takes transition hours past 24 and negative ones", () => {
    const israel = transitionsOfYear(parsePosixTz("IST-2IDT,M3.4.4/26,M10.5.0"), 2026);
    expect(israel[0].at).toBe(utc("2026-03-27T00:00:00Z"));
    const nuuk = transitionsOfYear(parsePosixTz("<-02>2<-01>,M3.5.0/-1,M10.5.0/0"), 2026);
    expect(nuuk.map((t) => t.at)).toEqual([utc("2026-03-29T01:00:00Z"), utc("2026-10-25T01:00:00Z")]);
  });

  it.each(["CET-1CEST,M13.5.0,M10.5.0", "X1", "CET-1CEST,M3.5.0", "<+03-3", "CET-25", "CET-1CEST,M3.5.0,M10.5.0/168", "CET-1 junk"])("refuses %j", (text) => {
    expect(() => parsePosixTz(text)).toThrow(PosixTzError);
  });
});
