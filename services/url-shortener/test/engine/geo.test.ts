import { describe, expect, it } from "vitest";
import { CountryLookup } from "../../src/engine/geo.js";

describe("CountryLookup over the bundled GeoLite2 country tables", () => {
  const countries = CountryLookup.fromInstalledPackage();
  it("finds IPv4, IPv6 and IPv4-mapped addresses; private ones are unknown", () => {
    expect(countries.country("81.2.69.142")).toBe("GB");
    expect(countries.country("::ffff:81.2.69.142")).toBe("GB");
    expect(countries.country("2a01:4f8::1")).toBe("DE");
    expect(countries.country("8.8.8.8")).toBe("US");
    expect(countries.country("10.1.2.3")).toBeNull();
    expect(countries.country("127.0.0.1")).toBeNull();
    expect(countries.country("not an ip")).toBeNull();
  });
});
