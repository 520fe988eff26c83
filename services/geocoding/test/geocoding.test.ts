import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeAuth } from "@apiplat/testing/auth-suite";
import { call, startService, UnknownData, type StartedService } from "@apiplat/testing";
import type { TSchema } from "typebox";
import type { ServiceApp } from "@apiplat/service-kit";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as S from "../src/schemas.js";
import service from "../src/service.js";
import { defaultGazetteerFiles, readLocalizedNames } from "../src/geonames/geonames-files.js";
import { readSnapshot, snapshotFromBytes, snapshotToBytes, writeSnapshot } from "../src/geonames/index-snapshot.js";
import { loadGeocodingIndex } from "../src/geonames/load-index.js";
import type { GeocodingIndex } from "../src/domain/build.js";
import { Gazetteer } from "../src/domain/gazetteer.js";
import { greatCircleKm } from "../src/domain/kd-tree.js";
import { reverseGeocode } from "../src/domain/reverse.js";
import { PlaceSearch } from "../src/domain/search.js";

const PARIS_FR = {
  id: 2988507,
  name: "Paris",
  latitude: 48.85341,
  longitude: 2.3488,
  country: "France",
  country_code: "FR",
  admin1: "Île-de-France",
  timezone: "Europe/Paris",
  population: 2138551,
  feature_code: "PPLC",
};
const PARIS_TEXAS = {
  id: 4717560,
  name: "Paris",
  latitude: 33.66094,
  longitude: -95.55551,
  country: "United States",
  country_code: "US",
  admin1: "Texas",
  timezone: "America/Chicago",
  population: 24782,
  feature_code: "PPLA2",
};
const MUNICH_ID = 2867714;
const SAO_PAULO_ID = 3448439;
const LONDON_ID = 2643743;
const BERLIN_ID = 2950159;

let started: StartedService;
let app: ServiceApp;
let headers: Record<string, string>;
let built: GeocodingIndex;
let restored: Gazetteer;

beforeAll(async () => {
  // One request per simulated second, so that the per-second plan limit never interferes.
  let tick = Date.UTC(2026, 0, 10);
  // Built from the files, then served from its snapshot: every HTTP test below also checks the snapshot.
  built = loadGeocodingIndex(defaultGazetteerFiles(), { snapshotDir: null });
  const localizedNames = readLocalizedNames(defaultGazetteerFiles().localeDir);
  restored = new Gazetteer(snapshotFromBytes(snapshotToBytes(built.gazetteer.parts())), localizedNames);
  const index = { gazetteer: restored, search: new PlaceSearch(restored), buildMs: 0, builtFrom: "snapshot" as const };
  started = await startService(service, { now: () => new Date((tick += 1000)), inject: { index } });
  app = started.app;
  headers = (await started.subscribe("MEGA")).headers;
});

afterAll(async () => {
  await started?.close();
});

const get = <Schema extends TSchema>(schema: Schema, url: string, requestHeaders: Record<string, string> = headers) =>
  call(started, schema, { url, headers: requestHeaders });

/** Expects `url` refused with 400 VALIDATION_ERROR naming `field` and `issue`. */
async function expectRefused(url: string, field: string, issue: string) {
  const answer = await get(UnknownData, url);
  expect(answer.status, url).toBe(400);
  expect(answer.body.status).toBe("error");
  expect(answer.error.code).toBe("VALIDATION_ERROR");
  expect(answer.error.details).toEqual([{ field, issue }]);
}

describe("GET /search", () => {
  it("ranks Paris, France before Paris, Texas and the other Parises", async () => {
    const { status, body, data } = await get(S.SearchData, "/search?q=Paris");
    expect(status).toBe(200);
    expect(body.status).toBe("success");
    expect(data.count).toBe(10);
    expect(data.results[0]).toEqual(PARIS_FR);
    expect(data.results[1]).toEqual(PARIS_TEXAS);
    expect(data.query).toEqual({ q: "Paris", name: "paris", qualifiers: [], limit: 10, language: null, country: null });
  });

  it("narrows with a region or country qualifier", async () => {
    for (const q of ["Paris, Texas", "paris,texas", "Paris, TX", "Paris, Tex", "Paris, Texas, USA"]) {
      const { data } = await get(S.SearchData, `/search?q=${encodeURIComponent(q)}`);
      expect(data.results, q).toEqual([PARIS_TEXAS]);
    }
    const { data } = await get(S.SearchData, `/search?q=${encodeURIComponent("Paris, France")}`);
    expect(data.results[0]).toEqual(PARIS_FR);
    expect(data.results.every((place) => place.country_code === "FR")).toBe(true);
    expect(data.query.qualifiers).toEqual(["france"]);
  });

  it("accepts country names in other languages as qualifiers", async () => {
    const { data } = await get(S.SearchData, `/search?q=${encodeURIComponent("Berlin, Deutschland")}`);
    expect(data.results[0].id).toBe(BERLIN_ID);
    expect(new Set(data.results.map((place) => place.country_code))).toEqual(new Set(["DE"]));
  });

  it("returns nothing when a qualifier matches no country or region of the place", async () => {
    const { status, data } = await get(S.SearchData, `/search?q=${encodeURIComponent("Paris, Atlantis")}`);
    expect(status).toBe(200);
    expect(data).toMatchObject({ count: 0, results: [] });
  });

  it("filters by country code, in either case", async () => {
    for (const country of ["US", "us"]) {
      const { data } = await get(S.SearchData, `/search?q=Paris&country=${country}`);
      expect(data.results[0]).toEqual(PARIS_TEXAS);
      expect(data.results.every((place) => place.country_code === "US")).toBe(true);
      expect(data.query.country).toBe("US");
    }
  });

  it("localizes München, its region and its country in German, English and Japanese", async () => {
    const expected = {
      de: { name: "München", country: "Deutschland", admin1: "Bayern" },
      en: { name: "Munich", country: "Germany", admin1: "Bavaria" },
      ja: { name: "ミュンヘン", country: "ドイツ", admin1: "バイエルン州" },
    };
    for (const [language, names] of Object.entries(expected)) {
      const { data } = await get(S.SearchData, `/search?q=${encodeURIComponent("München")}&language=${language}&limit=1`);
      expect(data.results).toEqual([
        {
          id: MUNICH_ID,
          ...names,
          latitude: 48.13743,
          longitude: 11.57549,
          country_code: "DE",
          timezone: "Europe/Berlin",
          population: 1260391,
          feature_code: "PPLA",
        },
      ]);
    }
  });

  it("finds a place by a name in another script", async () => {
    const { data } = await get(S.SearchData, `/search?q=${encodeURIComponent("ミュンヘン")}&limit=1`);
    expect(data.results[0].id).toBe(MUNICH_ID);
    expect(data.results[0].name).toBe("Munich");
  });

  it("falls back to the GeoNames name where a language has no translation", async () => {
    const { data } = await get(S.SearchData, `/search?q=${encodeURIComponent("Sant Julià de Lòria")}&language=ja&limit=1`);
    expect(data.results[0]).toMatchObject({ id: 3039163, name: "Sant Julià de Lòria", country: "アンドラ" });
  });

  it("matches São Paulo without accents and in any case", async () => {
    for (const q of ["Sao Paulo", "SAO PAULO", "são paulo", "São-Paulo"]) {
      const { data } = await get(S.SearchData, `/search?q=${encodeURIComponent(q)}&limit=1`);
      expect(data.results[0], q).toMatchObject({ id: SAO_PAULO_ID, name: "São Paulo", country_code: "BR", admin1: "São Paulo" });
    }
  });

  it("weighs a capital or region seat without letting a small one outrank a large city", async () => {
    const { data } = await get(S.SearchData, "/search?q=Frankfurt&limit=2");
    expect(data.results.map((place) => [place.id, place.name, place.feature_code])).toEqual([
      [2925533, "Frankfurt am Main", "PPLA3"],
      [4292188, "Frankfort", "PPLA"],
    ]);
  });

  it("matches prefixes from three characters on", async () => {
    const { data } = await get(S.SearchData, "/search?q=lond&limit=3");
    expect(data.results.map((place) => [place.name, place.country_code])).toEqual([
      ["London", "GB"],
      ["Londrina", "BR"],
      ["London", "CA"],
    ]);
    expect(data.results[0].id).toBe(LONDON_ID);
    const three = await get(S.SearchData, "/search?q=Lon&limit=100");
    expect(three.data.results.map((place) => place.id)).toContain(LONDON_ID);
  });

  it("matches two characters exactly only", async () => {
    const { data } = await get(S.SearchData, "/search?q=lo&limit=100");
    expect(data.results.map((place) => place.name)).toEqual(["Lo"]);
  });

  it("applies the limit: default 10, 1 to 100", async () => {
    expect((await get(S.SearchData, "/search?q=san")).data.count).toBe(10);
    expect((await get(S.SearchData, "/search?q=san&limit=1")).data.count).toBe(1);
    expect((await get(S.SearchData, "/search?q=san&limit=100")).data.count).toBe(100);
    await expectRefused("/search?q=san&limit=0", "limit", "must be at least 1");
    await expectRefused("/search?q=san&limit=101", "limit", "must be at most 100");
    await expectRefused("/search?q=san&limit=2.5", "limit", "must be an integer");
  });

  it("bounds q: 2 to 200 characters, with at least two letters before a comma", async () => {
    expect((await get(S.SearchData, "/search?q=" + "a".repeat(200))).status).toBe(200);
    await expectRefused("/search?q=" + "a".repeat(201), "q", "must be at most 200 characters long");
    await expectRefused("/search?q=a", "q", "must be at least 2 characters long");
    await expectRefused(`/search?q=${encodeURIComponent("a, Texas")}`, "q", "must name a place with at least 2 letters or digits before any comma");
    await expectRefused("/search", "q", "is required");
  });

  it("refuses an unsupported language or unknown country", async () => {
    await expectRefused("/search?q=Paris&language=xx", "language", "must be a supported ISO 639-1 code (GET /languages lists them)");
    await expectRefused("/search?q=Paris&country=ZZ", "country", "must be the ISO 3166-1 alpha-2 code of a country with places in the gazetteer");
    await expectRefused("/search?q=Paris&country=USA", "country", "must be at most 2 characters long");
    await expectRefused("/search?q=Paris&language=", "language", "must not be empty");
  });

  it("accepts a language code in upper case", async () => {
    const { status, data } = await get(S.SearchData, `/search?q=Munich&language=DE&limit=1`);
    expect(status).toBe(200);
    expect(data.results[0].name).toBe("München");
    expect(data.query.language).toBe("de");
  });
});

describe("GET /reverse", () => {
  it.each([
    { lat: 48.8566, lon: 2.3522, locality: "Paris", admin1: "Île-de-France", country: "France", code: "FR", tz: "Europe/Paris", id: 2988507 },
    { lat: 52.52, lon: 13.405, locality: "Berlin", admin1: "State of Berlin", country: "Germany", code: "DE", tz: "Europe/Berlin", id: BERLIN_ID },
    {
      lat: -35.2809,
      lon: 149.13,
      locality: "Canberra",
      admin1: "Australian Capital Territory",
      country: "Australia",
      code: "AU",
      tz: "Australia/Sydney",
      id: 2172517,
    },
    {
      lat: 38.9072,
      lon: -77.0369,
      locality: "Washington",
      admin1: "District of Columbia",
      country: "United States",
      code: "US",
      tz: "America/New_York",
      id: 4140963,
    },
    { lat: -1.2921, lon: 36.8219, locality: "Nairobi", admin1: "Nairobi County", country: "Kenya", code: "KE", tz: "Africa/Nairobi", id: 184745 },
  ])("finds $locality at its capital coordinates", async (capital) => {
    const { status, data } = await get(S.ReverseData, `/reverse?lat=${capital.lat}&lon=${capital.lon}`);
    expect(status).toBe(200);
    expect(data).toMatchObject({
      latitude: capital.lat,
      longitude: capital.lon,
      within_max_distance: true,
      locality: capital.locality,
      admin1: capital.admin1,
      country: capital.country,
      country_code: capital.code,
      timezone: capital.tz,
      max_distance_km: 50,
    });
    expect(data.nearest_place.id).toBe(capital.id);
    const expectedKm = greatCircleKm(capital.lat, capital.lon, data.nearest_place.latitude, data.nearest_place.longitude);
    expect(data.distance_km).toBeCloseTo(expectedKm, 2);
    expect(data.distance_km).toBeLessThan(2);
    expect(data.nearest_place.distance_km).toBe(data.distance_km);
  });

  it("reports the Paris distance exactly", async () => {
    const { data } = await get(S.ReverseData, "/reverse?lat=48.8566&lon=2.3522");
    expect(data.distance_km).toBe(0.433);
    expect(data.nearest_place).toEqual({ ...PARIS_FR, distance_km: 0.433 });
  });

  it("says when the point is far from any place instead of borrowing a country", async () => {
    const { data } = await get(S.ReverseData, "/reverse?lat=0&lon=-30");
    expect(data).toMatchObject({
      within_max_distance: false,
      locality: null,
      admin1: null,
      country: null,
      country_code: null,
      timezone: null,
      distance_km: 504.085,
    });
    expect(data.nearest_place).toMatchObject({ id: 6317136, country_code: "BR", distance_km: 504.085 });
  });

  it("widens with max_distance_km, up to half the Earth's circumference", async () => {
    const wide = await get(S.ReverseData, "/reverse?lat=0&lon=-30&max_distance_km=20016");
    expect(wide.status).toBe(200);
    expect(wide.data).toMatchObject({ within_max_distance: true, country_code: "BR", max_distance_km: 20016 });
    const narrow = await get(S.ReverseData, "/reverse?lat=48.8566&lon=2.3522&max_distance_km=0.4");
    expect(narrow.data).toMatchObject({ within_max_distance: false, locality: null, distance_km: 0.433 });
    const zero = await get(S.ReverseData, "/reverse?lat=48.85341&lon=2.3488&max_distance_km=0");
    expect(zero.data).toMatchObject({ within_max_distance: true, locality: "Paris", distance_km: 0 });
    await expectRefused("/reverse?lat=0&lon=0&max_distance_km=20017", "max_distance_km", "must be at most 20016");
    await expectRefused("/reverse?lat=0&lon=0&max_distance_km=-1", "max_distance_km", "must be at least 0");
  });

  it("treats longitude 180 and -180 as the same meridian and looks across it", async () => {
    const east = await get(S.ReverseData, "/reverse?lat=-16.8&lon=180&max_distance_km=100");
    const west = await get(S.ReverseData, "/reverse?lat=-16.8&lon=-180&max_distance_km=100");
    expect(east.data.nearest_place).toEqual(west.data.nearest_place);
    expect(east.data).toMatchObject({ locality: "Labasa", country_code: "FJ", timezone: "Pacific/Fiji", distance_km: 79.047 });
    // West of the antimeridian, the nearest place lies east of it.
    const across = await get(S.ReverseData, "/reverse?lat=-16.5&lon=-179.99&max_distance_km=100");
    expect(across.data).toMatchObject({ locality: "Labasa", distance_km: 69.231 });
    expect(across.data.nearest_place.longitude).toBe(179.36451);
  });

  it("answers at both poles whatever the longitude", async () => {
    for (const lon of [0, 123, -180, 180]) {
      const north = await get(S.ReverseData, `/reverse?lat=90&lon=${lon}`);
      expect(north.data).toMatchObject({ within_max_distance: false, locality: null, distance_km: 1309.507 });
      expect(north.data.nearest_place).toMatchObject({ name: "Longyearbyen", country_code: "SJ" });
      const south = await get(S.ReverseData, `/reverse?lat=-90&lon=${lon}`);
      expect(south.data).toMatchObject({ within_max_distance: false, distance_km: 1351.429 });
      expect(south.data.nearest_place).toMatchObject({ name: "McMurdo Station", country_code: "AQ" });
    }
  });

  it("localizes the locality and the country", async () => {
    const { data } = await get(S.ReverseData, "/reverse?lat=48.1374&lon=11.5755&language=ja");
    expect(data).toMatchObject({ locality: "ミュンヘン", admin1: "バイエルン州", country: "ドイツ", country_code: "DE" });
  });

  it("refuses coordinates out of range, at the edge and past it", async () => {
    for (const [lat, lon] of [
      [90, 180],
      [-90, -180],
    ]) {
      expect((await get(S.ReverseData, `/reverse?lat=${lat}&lon=${lon}`)).status).toBe(200);
    }
    const cases: Array<[string, string, string]> = [
      ["lat=90.0001&lon=0", "lat", "must be at most 90"],
      ["lat=-90.0001&lon=0", "lat", "must be at least -90"],
      ["lat=0&lon=180.0001", "lon", "must be at most 180"],
      ["lat=0&lon=-180.0001", "lon", "must be at least -180"],
      ["lat=north&lon=0", "lat", "must be a number"],
      ["lat=&lon=0", "lat", "must not be empty"],
      ["lon=0", "lat", "is required"],
      ["lat=0", "lon", "is required"],
    ];
    for (const [query, field, issue] of cases) {
      await expectRefused(`/reverse?${query}`, field, issue);
    }
  });
});

describe("GET /places/{id} and /languages", () => {
  it("returns a place by GeoNames id, localized on request", async () => {
    expect((await get(S.PlaceSchema, "/places/2988507")).data).toEqual(PARIS_FR);
    expect((await get(S.PlaceSchema, "/places/2988507?language=ja")).data).toMatchObject({ name: "パリ", country: "フランス" });
  });

  it("says 404 for an id not in the gazetteer and 400 for a malformed one", async () => {
    const missing = await get(S.PlaceSchema, "/places/1");
    expect(missing.status).toBe(404);
    expect(missing.error).toEqual({ code: "NOT_FOUND", message: "No place has the GeoNames id 1 in this gazetteer." });
    await expectRefused("/places/paris", "id", "must be an integer");
  });

  it("lists the languages with their coverage", async () => {
    const { data } = await get(S.LanguagesData, "/languages");
    expect(data.count).toBe(data.languages.length);
    expect(data.count).toBeGreaterThan(100);
    const japanese = data.languages.find((language) => language.code === "ja");
    expect(japanese).toMatchObject({ code: "ja", name: "Japanese", localized_country_names: true });
    expect(japanese?.localized_place_names).toBeGreaterThan(5000);
  });
});

describeAuth({ started: () => started, method: "GET", url: "/search?q=Paris" });

describe("metering", () => {
  it("meters every answered request against the plan", async () => {
    const subscriber = await started.subscribe("BASIC");
    const first = await get(S.SearchData, "/search?q=Paris", subscriber.headers);
    expect(first.headers["x-ratelimit-requests-limit"]).toBe("100");
    expect(first.headers["x-ratelimit-requests-remaining"]).toBe("99");
    const second = await get(S.ReverseData, "/reverse?lat=0&lon=0", subscriber.headers);
    expect(second.headers["x-ratelimit-requests-remaining"]).toBe("98");
  });

  it("serves health and OpenAPI without a key", async () => {
    expect((await app.inject({ method: "GET", url: "/health" })).statusCode).toBe(200);
    const spec = (await app.inject({ method: "GET", url: "/openapi.json" })).json();
    expect(Object.keys(spec.paths).sort()).toEqual(["/languages", "/places/{id}", "/reverse", "/search"]);
  });
});

describe("index snapshot", () => {
  it("answers exactly as the index built from the files", () => {
    const fromSnapshot = new PlaceSearch(restored);
    for (const q of ["Paris", "lond", "Berlin, Germany", "san", "München", "ミュンヘン", "Paris, TX", "new yo"]) {
      for (const language of [undefined, "ja"]) {
        expect(fromSnapshot.search({ q, limit: 50, language }), q).toEqual(built.search.search({ q, limit: 50, language }));
      }
    }
    for (const [latitude, longitude] of [
      [48.85, 2.35],
      [-16.8, 180],
      [90, 0],
      [-33.9, 18.4],
      [64.1, -21.9],
    ]) {
      const request = { latitude, longitude, maxDistanceKm: 50 };
      expect(reverseGeocode(restored, request)).toEqual(reverseGeocode(built.gazetteer, request));
    }
  });

  it("is written, replaces older snapshots, is read back, and is ignored when corrupt", () => {
    const dir = mkdtempSync(join(tmpdir(), "geocoding-snapshot-"));
    try {
      const localizedNames = readLocalizedNames(defaultGazetteerFiles().localeDir);
      const path = join(dir, "index-000000000000000000000000.bin");
      writeFileSync(join(dir, "index-111111111111111111111111.bin"), "an older snapshot");
      writeSnapshot(path, built.gazetteer);
      const reread = readSnapshot(path, localizedNames)!;
      expect(reread.describe(reread.indexOfId(2988507)!, "de")).toEqual(built.gazetteer.describe(built.gazetteer.indexOfId(2988507)!, "de"));
      expect(existsSync(join(dir, "index-111111111111111111111111.bin"))).toBe(false);
      writeFileSync(path, "GEOIDX01 but truncated");
      expect(readSnapshot(path, localizedNames)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
