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
    const { status, body } = await get(`/property/${id}`);
    expect(status).toBe(200);
    const zipMedian = median(kc.filter((r) => r.zipcode === row.zipcode).map((r) => Number(r.price) / Number(r.sqft_living)));
    expect(body.data).toMatchObject({
      id,
      address: null,
      city: null,
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
      days_on_market: null,
      details: { grade: Number(row.grade), condition: Number(row.condition), view: Number(row.view), waterfront: row.waterfront === "1", parcel_id: row.id },
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
    const { body: found } = await get(`/search?market=new-york&property_type=co_op&min_price=${row.PRICE}&max_price=${row.PRICE}&limit=100`);
    const match = found.data.properties.find((p: { address: string }) => p.address === row.ADDRESS);
    const { body } = await get(`/property/${match.id}`);
    expect(body.data).toMatchObject({
      address: row.ADDRESS,
      price: Number(row.PRICE),
      price_kind: "list",
      living_sqft: null,
      price_per_sqft: null,
      property_type: "co_op",
      status: "for_sale",
      bedrooms: Number(row.BEDS),
      details: { broker: row.BROKERTITLE.replace(/^Brokered by\s*/, "").trim() },
    });
  });

  it("is a 404 for an unknown id and a 400 for a malformed one", async () => {
    const missing = await get("/property/kc-1-20140101");
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("NOT_FOUND");
    const bad = await get("/property/DROP%20TABLE");
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe("id");
  });
});
