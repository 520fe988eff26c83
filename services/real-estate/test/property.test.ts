import type { StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getter, kingCounty, median, newYork, startRealEstate } from "./helpers.js";

let started: StartedService;
let get: ReturnType<typeof getter>;
const kc = kingCounty();
const ny = newYork();

beforeAll(async () => {
  started = await startRealEstate({ sources: ["king-county-sales", "new-york-listings"] });
  get = getter(started, (await started.subscribe("PRO")).headers);
}, 120_000);
afterAll(() => started.close());

describe("GET /property/{id}", () => {
  it("shows every field of a King County sale, its price per square foot and its zip's median", async () => {
    const row = kc[0];
    const id = `kc-${row.id}-${row.date.slice(0, 8)}`;
    const { status, data } = await get(`/property/${id}`);
    expect(status).toBe(200);
    const zipMedian = median(kc.filter((r) => r.zipcode === row.zipcode).map((r) => Number(r.price) / Number(r.sqft_living)));
    expect(data).toMatchObject({
      id,
      address: null,
      // The file has no city: ZIP codes 981xx are Seattle's (USPS), and 98178 is one of them.
      city: "Seattle",
      county: "King County",
      state: "WA",
      zip: row.zipcode,
      latitude: Number(row.lat),
      longitude: Number(row.long),
      price: Number(row.price),
      price_kind: "sale",
      price_per_sqft: Math.round((Number(row.price) / Number(row.sqft_living)) * 100) / 100,
      bedrooms: Number(row.bedrooms),
      bathrooms: Number(row.bathrooms),
      living_sqft: Number(row.sqft_living),
      lot_sqft: Number(row.sqft_lot),
      year_built: Number(row.yr_built),
      year_renovated: Number(row.yr_renovated) || null,
      property_type: null,
      status: "sold",
      sold_date: `${row.date.slice(0, 4)}-${row.date.slice(4, 6)}-${row.date.slice(6, 8)}`,
      listed_date: null,
      price_as_of: `${row.date.slice(0, 4)}-${row.date.slice(4, 6)}-${row.date.slice(6, 8)}`,
      days_on_market: null,
      details: {
        city_from_zip: true,
        grade: Number(row.grade),
        condition: Number(row.condition),
        view: Number(row.view),
        waterfront: row.waterfront === "1",
        parcel_id: row.id,
      },
      area: {
        zip: row.zipcode,
        properties: kc.filter((r) => r.zipcode === row.zipcode).length,
        median_price_per_sqft: Math.round(zipMedian * 100) / 100,
        median_days_on_market: null,
      },
    });
  });

  it("shows a New York listing with its broker, and no area where the file filled in a mean", async () => {
    const row = ny.find((r) => r.PROPERTYSQFT === "2184.207862" && r.TYPE === "Co-op for sale")!;
    const { data: found } = await get(`/search?market=new-york&property_type=co_op&min_price=${row.PRICE}&max_price=${row.PRICE}&limit=100`);
    const match = found.properties.find((p) => p.address === row.ADDRESS)!;
    const { data } = await get(`/property/${match.id}`);
    expect(data).toMatchObject({
      address: row.ADDRESS,
      price: Number(row.PRICE),
      price_kind: "list",
      living_sqft: null,
      price_per_sqft: null,
      property_type: "co_op",
      status: "for_sale",
      bedrooms: Number(row.BEDS),
      price_as_of: "2024-03-01",
      details: { broker: row.BROKERTITLE.replace(/^Brokered by\s*/, "").trim() },
    });
  });

  it("gives a New York listing the county its file names, in whichever column the file put it", async () => {
    const countyOf = (r: Record<string, string>) =>
      [r.ADMINISTRATIVE_AREA_LEVEL_2, r.LOCALITY, r.SUBLOCALITY].find((v) => /^(New York|Kings|Queens|Bronx|Richmond) County$/.test(v)) ?? null;
    const brooklyn = ny.find((r) => r.ADMINISTRATIVE_AREA_LEVEL_2 === "New York" && r.LOCALITY === "Kings County")!;
    const { data: found } = await get(`/search?market=new-york&min_price=${brooklyn.PRICE}&max_price=${brooklyn.PRICE}&limit=100`);
    const match = found.properties.find((p) => p.address === brooklyn.ADDRESS)!;
    expect(match.county).toBe("Kings County");
    // Every listing of a page of Brooklyn's and Queens's ZIP codes: the county of its row in the file, or null when none is named.
    for (const zip of ["11235", "11375"]) {
      const { data } = await get(`/search?market=new-york&zip=${zip}&limit=100`);
      expect(data.properties.length).toBeGreaterThan(20);
      for (const p of data.properties as { address: string; price: number; county: string | null }[]) {
        const rows = ny.filter((r) => r.ADDRESS === p.address && Number(r.PRICE) === p.price);
        expect(rows.map(countyOf)).toContain(p.county);
      }
    }
  });

  it("is a 404 for an unknown id and a 400 for a malformed one", async () => {
    const missing = await get("/property/kc-1-20140101");
    expect(missing.status).toBe(404);
    expect(missing.error.code).toBe("NOT_FOUND");
    const bad = await get("/property/DROP%20TABLE");
    expect(bad.status).toBe(400);
    expect(bad.error.details?.[0].field).toBe("id");
  });
});
