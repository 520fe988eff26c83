import { describe, expect, it } from "vitest";
import { seededRandom } from "@apiplat/testing";
import { parseMoCatalog, parsePlaces } from "../src/geonames/geonames-files.js";
import { SphereKdTree, greatCircleKm } from "../src/domain/kd-tree.js";
import { codePointLength, codePointPrefix, normalizeName } from "../src/domain/normalize.js";
import { parseQuery } from "../src/domain/search.js";
import { buildMo } from "./mo-fixture.js";

describe("normalizeName", () => {
  it.each([
    ["São Paulo", "sao paulo"],
    ["SAO PAULO", "sao paulo"],
    ["  Sant Julià de Lòria ", "sant julia de loria"],
    ["München", "munchen"],
    ["İstanbul", "istanbul"],
    ["Nuku'alofa", "nukualofa"],
    ["Łódź", "lodz"],
    ["Ærøskøbing", "aeroskobing"],
    ["Straße", "strasse"],
    ["Saint-Pierre--et   Miquelon", "saint pierre et miquelon"],
    ["ｔｏｋｙｏ", "tokyo"],
    ["サン・ジュリア", "サン ジュリア"],
    ["東京", "東京"],
    ["Москва", "москва"],
  ])("%s -> %s", (input, expected) => {
    expect(normalizeName(input)).toBe(expected);
  });

  it("keeps kana voicing marks and recomposes a separate one", () => {
    expect(normalizeName("ガ")).toBe("ガ");
    expect(normalizeName("カ\u3099")).toBe("ガ");
  });

  it("counts and cuts code points, not UTF-16 units", () => {
    expect(codePointLength("𠀋𠀌")).toBe(2);
    expect(codePointPrefix("𠀋𠀌𠀍𠀎", 3)).toBe("𠀋𠀌𠀍");
    expect(codePointPrefix("ab", 3)).toBe("ab");
  });
});

describe("parseQuery", () => {
  it("splits the name from its qualifiers", () => {
    expect(parseQuery("Paris, Texas, US")).toEqual({ name: "paris", qualifiers: ["texas", "us"] });
    expect(parseQuery("Berlin,,  ")).toEqual({ name: "berlin", qualifiers: [] });
  });

  it("refuses a name part of fewer than two letters", () => {
    expect(() => parseQuery("a, Texas")).toThrow("q must name a place with at least 2 letters or digits before any comma");
    expect(() => parseQuery("--")).toThrow(/at least 2 letters/);
  });
});

describe("SphereKdTree", () => {
  it("finds the same nearest point as a brute-force great-circle search", () => {
    const random = seededRandom(42);
    const latitudes = Array.from({ length: 3000 }, () => Math.asin(2 * random() - 1) * (180 / Math.PI));
    const longitudes = Array.from({ length: 3000 }, () => random() * 360 - 180);
    const tree = new SphereKdTree(latitudes, longitudes);
    for (let query = 0; query < 500; query++) {
      const lat = random() * 180 - 90;
      const lon = random() * 360 - 180;
      let bestIndex = -1;
      let bestKm = Infinity;
      latitudes.forEach((pointLat, index) => {
        const km = greatCircleKm(lat, lon, pointLat, longitudes[index]);
        if (km < bestKm) {
          bestKm = km;
          bestIndex = index;
        }
      });
      const hit = tree.nearest(lat, lon)!;
      expect(hit.index).toBe(bestIndex);
      expect(hit.distanceKm).toBeCloseTo(bestKm, 6);
    }
  });

  it("sees across the antimeridian and over the poles", () => {
    const tree = new SphereKdTree([0, 0, 89.9, -89.9], [179.9, 0, -170, 100]);
    expect(tree.nearest(0, -179.9)).toEqual({ index: 0, distanceKm: expect.closeTo(22.239, 3) });
    expect(tree.nearest(89.95, 10)!.index).toBe(2);
    expect(tree.nearest(-90, -80)!.index).toBe(3);
    expect(tree.nearest(-90, -80)!.distanceKm).toBeCloseTo(11.12, 2);
  });

  it("answers nothing when empty", () => {
    expect(new SphereKdTree([], []).nearest(0, 0)).toBeUndefined();
  });
});

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
