import { describe, expect, it } from "vitest";
import { parseMoCatalog, parsePlaces } from "../../src/geonames/geonames-files.js";
import { buildMo } from "../mo-fixture.js";

describe("GeoNames files", () => {
  it("parses the cities500 columns it uses", () => {
    const line = "2988507\tParis\tParis\tLutetia,Paname,パリ\t48.85341\t2.3488\tP\tPPLC\tFR\t\t11\t75\t751\t75056\t2138551\t\t42\tEurope/Paris\t2024-06-12\n";
    const [place, ...rest] = parsePlaces(Buffer.from(line + "not\ta\tplace\n"));
    expect(rest).toEqual([]);
    expect(place).toEqual({
      id: 2988507,
      name: "Paris",
      asciiName: "Paris",
      alternateNames: "Lutetia,Paname,パリ",
      latitude: 48.85341,
      longitude: 2.3488,
      featureCode: "PPLC",
      countryCode: "FR",
      admin1Code: "11",
      population: 2138551,
      timezone: "Europe/Paris",
    });
  });

  it("reads a gettext .mo catalogue", () => {
    const catalogue = parseMoCatalog(
      buildMo([
        ["2867714", "München"],
        ["2988507", "パリ"],
      ]),
    );
    expect([...catalogue]).toEqual([
      ["2867714", "München"],
      ["2988507", "パリ"],
    ]);
    expect(() => parseMoCatalog(Buffer.alloc(28))).toThrow("not a gettext .mo file");
  });
});
