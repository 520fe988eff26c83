import type { StartedService } from "@apiplat/testing";
import { describeAuth } from "@apiplat/testing/auth-suite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getter, kingCounty, km, newYork, sacramento, startRealEstate } from "./helpers.js";

let started: StartedService;
let get: ReturnType<typeof getter>;
const sac = sacramento();
const ny = newYork();
const kc = kingCounty();

beforeAll(async () => {
  started = await startRealEstate();
  get = getter(started, (await started.subscribe("PRO")).headers);
}, 120_000);
afterAll(() => started.close());

describe("GET /search by place", () => {
  it("counts a city as the file does (case-insensitive)", async () => {
    const expected = sac.filter((r) => r.city === "ELK GROVE").length;
    const { status, data } = await get("/search?city=elk%20grove&limit=1");
    expect(status).toBe(200);
    expect(data.total_results).toBe(expected);
    expect(data.properties[0]).toMatchObject({
      city: "Elk Grove",
      state: "CA",
      market: "sacramento",
      status: "sold",
      price_kind: "sale",
      currency: "USD",
    });
  });

  it("finds King County sales by city, named after their ZIP code since the file has no city", async () => {
    // USPS gives every ZIP code 981xx the mailing city Seattle; King County's other ZIP codes are other cities.
    const expected = kc.filter((r) => r.zipcode.startsWith("981") && Number(r.bedrooms) >= 3 && Number(r.price) <= 600000);
    const { status, data } = await get("/search?city=Seattle&bedrooms=3&max_price=600000&limit=100&facets=true");
    expect(status).toBe(200);
    expect(expected.length).toBeGreaterThan(100);
    expect(data.total_results).toBe(expected.length);
    expect(data.facets?.market).toEqual([{ value: "king-county", count: expected.length }]);
    for (const p of data.properties) expect(p).toMatchObject({ city: "Seattle", county: "King County", state: "WA", details: { city_from_zip: true } });
    const bellevue = await get("/search?city=bellevue&limit=1");
    expect(bellevue.data.total_results).toBe(kc.filter((r) => ["98004", "98005", "98006", "98007", "98008"].includes(r.zipcode)).length);
  });

  it("filters a zip with price bounds inclusive at both edges", async () => {
    const inZip = sac
      .filter((r) => r.zip === "95823")
      .map((r) => Number(r.price))
      .sort((a, b) => a - b);
    const [low, high] = [inZip[2], inZip[inZip.length - 3]];
    const { data } = await get(`/search?zip=95823&min_price=${low}&max_price=${high}&sort=price_asc&limit=100`);
    expect(data.total_results).toBe(inZip.filter((p) => p >= low && p <= high).length);
    expect(data.properties[0].price).toBe(low);
    expect(data.properties.at(-1)?.price).toBe(high);
  });

  it("reads bedrooms as a minimum, or exactly with bedrooms_exact", async () => {
    const atLeast = kc.filter((r) => Number(r.bedrooms) >= 4 && r.zipcode === "98103").length;
    const exactly = kc.filter((r) => Number(r.bedrooms) === 4 && r.zipcode === "98103").length;
    expect((await get("/search?zip=98103&bedrooms=4&limit=1")).data.total_results).toBe(atLeast);
    expect((await get("/search?zip=98103&bedrooms=4&bedrooms_exact=true&limit=1")).data.total_results).toBe(exactly);
    expect(exactly).toBeLessThan(atLeast);
  });

  it("finds everything within a radius, nearest first, with exact distances", async () => {
    const [lat, lon] = [38.5816, -121.4944];
    const within = sac
      .map((r) => ({ r, d: km(lat, lon, Number(r.latitude), Number(r.longitude)) }))
      .filter((x) => x.d <= 4)
      .sort((a, b) => a.d - b.d);
    const { data } = await get(`/search?lat=${lat}&lon=${lon}&radius_km=4&limit=100`);
    expect(data.total_results).toBe(within.length);
    expect(data.properties[0].distance_km).toBeCloseTo(within[0].d, 3);
    expect(data.properties[0].address).toBe(within[0].r.street.toLowerCase().replace(/\b[a-z]/g, (c: string) => c.toUpperCase()));
    // A radius search gives every property its distance.
    const distances = data.properties.map((p) => p.distance_km!);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
  });

  it("filters a bounding box (west,south,east,north)", async () => {
    const [w, s, e, n] = [-74.02, 40.7, -73.97, 40.75];
    const expected = ny.filter((r) => Number(r.LONGITUDE) >= w && Number(r.LONGITUDE) <= e && Number(r.LATITUDE) >= s && Number(r.LATITUDE) <= n).length;
    const { data } = await get(`/search?bbox=${w},${s},${e},${n}&limit=1`);
    expect(data.total_results).toBe(expected);
    expect(expected).toBeGreaterThan(0);
  });
});

describe("GET /search by kind", () => {
  it("splits New York's TYPE into property type and status, with facets", async () => {
    const condos = ny.filter((r) => r.TYPE === "Condo for sale").length;
    const pending = ny.filter((r) => r.TYPE === "Pending").length;
    const { data } = await get("/search?market=new-york&property_type=condo&facets=true&limit=1");
    expect(data.total_results).toBe(condos);
    expect(data.facets?.property_type).toEqual([{ value: "condo", count: condos }]);
    expect((await get("/search?status=pending&limit=1")).data.total_results).toBe(pending);
  });

  it("keeps living area at least min_sqft, leaving out the file's filled-in means", async () => {
    const expected = ny.filter((r) => r.PROPERTYSQFT !== "2184.207862" && Number(r.PROPERTYSQFT) >= 3000).length;
    expect((await get("/search?market=new-york&min_sqft=3000&limit=1")).data.total_results).toBe(expected);
  });

  it("sorts by price descending and by newest sale", async () => {
    const top = Math.max(...kc.map((r) => Number(r.price)));
    expect((await get("/search?state=WA&sort=price_desc&limit=1")).data.properties[0].price).toBe(top);
    const newest = kc
      .map((r) => r.date.slice(0, 8))
      .sort()
      .at(-1)!;
    const { data } = await get("/search?state=wa&limit=1");
    expect(data.properties[0].sold_date).toBe(`${newest.slice(0, 4)}-${newest.slice(4, 6)}-${newest.slice(6, 8)}`);
  });

  it("answers an empty page for a zip nobody lives in", async () => {
    const { status, data } = await get("/search?zip=00000");
    expect(status).toBe(200);
    expect(data).toMatchObject({ total_results: 0, next_cursor: null, properties: [] });
  });
});

describe("GET /search pagination", () => {
  it("walks every page once, with no overlap", async () => {
    const expected = sac.filter((r) => r.city === "SACRAMENTO").length;
    const seen = new Set<string>();
    let cursor: string | null = null;
    do {
      // Annotated: the page's type would depend on the cursor, which the previous page gave.
      const { data }: { data: { properties: { id: string }[]; next_cursor: string | null } } = await get(
        `/search?city=Sacramento&sort=price_asc&limit=100${cursor ? `&cursor=${cursor}` : ""}`,
      );
      for (const p of data.properties) seen.add(p.id);
      cursor = data.next_cursor;
    } while (cursor);
    expect(seen.size).toBe(expected);
  });

  it("refuses limits beyond 1 to 100 and a cursor of another query", async () => {
    expect((await get("/search?limit=0")).status).toBe(400);
    expect((await get("/search?limit=101")).error.details?.[0].field).toBe("limit");
    expect((await get("/search?limit=100")).status).toBe(200);
    const first = await get("/search?city=Sacramento&limit=5");
    const replayed = await get(`/search?city=Folsom&limit=5&cursor=${first.data.next_cursor}`);
    expect(replayed.status).toBe(400);
    expect(replayed.error.details?.[0].field).toBe("cursor");
  });
});

describe("GET /search validation", () => {
  it.each([
    ["/search?lat=38.5", "lon"],
    ["/search?radius_km=3", "radius_km"],
    ["/search?lat=38.5&lon=-121.4&radius_km=101", "radius_km"],
    ["/search?lat=91&lon=0", "lat"],
    ["/search?bbox=1,2,3", "bbox"],
    ["/search?bbox=-121,39,-122,38", "bbox"],
    ["/search?min_price=500000&max_price=100000", "max_price"],
    ["/search?sort=distance", "sort"],
    ["/search?zip=9582", "zip"],
    ["/search?bedrooms_exact=true", "bedrooms_exact"],
    ["/search?lat=38.5&lon=-121.4&bbox=-122,38,-121,39", "bbox"],
  ])("%s is a 400 naming %s", async (url, field) => {
    const { status, error } = await get(url);
    expect(status).toBe(400);
    expect(error.code).toBe("VALIDATION_ERROR");
    expect(JSON.stringify(error.details)).toContain(field);
  });
});

describe("GET /sources", () => {
  it("lists the three datasets with attribution and their runs", async () => {
    const { data } = await get("/sources");
    const names = data.datasets.map((d: { name: string }) => d.name);
    expect(names).toEqual(["king-county-sales", "sacramento-sales", "new-york-listings"]);
    expect(data.datasets[1].last_run).toMatchObject({ status: "succeeded", rows_read: 985, rows_inserted: sac.length });
  });
});

describeAuth({ started: () => started, method: "GET", url: "/search?city=elk%20grove" });
