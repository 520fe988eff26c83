import type { StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getter, kingCounty, km, sacramento, startRealEstate } from "./helpers.js";

let started: StartedService;
let get: ReturnType<typeof getter>;
const kc = kingCounty();
const sac = sacramento();

beforeAll(async () => {
  started = await startRealEstate();
  get = getter(started, (await started.subscribe("PRO")).headers);
}, 120_000);
afterAll(() => started.close());

interface Comparable {
  id: string;
  latitude: number;
  longitude: number;
  distance_km: number;
  adjusted_price: number;
  price: number;
  similarity: number;
}

describe("GET /estimate by attributes", () => {
  it("values a King County house from 12 nearby sales, with a calibrated 80 % interval", async () => {
    const [lat, lon] = [47.6101, -122.3421];
    const { status, body } = await get(`/estimate?lat=${lat}&lon=${lon}&sqft=1800&bedrooms=3&bathrooms=2&year_built=1985`);
    expect(status).toBe(200);
    const e = body.data;
    expect(e).toMatchObject({ currency: "USD", interval_coverage: 0.8, market: "king-county", price_kind: "sale" });
    expect(e.valuation_date).toBe(kc.map((r) => r.date.slice(0, 8)).sort().at(-1)!.replace(/^(\d{4})(\d{2})(\d{2})$/, "$1-$2-$3"));
    expect(e.price_low).toBeLessThan(e.price);
    expect(e.price_high).toBeGreaterThan(e.price);
    expect(["high", "medium", "low"]).toContain(e.confidence);
    expect(e.comparables).toHaveLength(12);
    const byId = new Map(kc.map((r) => [`kc-${r.id}-${r.date.slice(0, 8)}`, r]));
    const adjusted = e.comparables.map((c: Comparable) => c.adjusted_price);
    expect(e.price).toBeGreaterThanOrEqual(Math.min(...adjusted) - 100);
    expect(e.price).toBeLessThanOrEqual(Math.max(...adjusted) + 100);
    for (const c of e.comparables as Comparable[]) {
      const row = byId.get(c.id)!;
      expect(c.price).toBe(Number(row.price));
      expect(c.distance_km).toBeCloseTo(km(lat, lon, Number(row.lat), Number(row.long)), 3);
      expect(c.similarity).toBeGreaterThan(0);
      expect(c.similarity).toBeLessThanOrEqual(1);
    }
  });

  it("values more for more living area, everything else equal", async () => {
    const small = await get("/estimate?lat=47.6101&lon=-122.3421&sqft=1200&bedrooms=3&bathrooms=2&year_built=1985");
    const large = await get("/estimate?lat=47.6101&lon=-122.3421&sqft=2400&bedrooms=3&bathrooms=2&year_built=1985");
    expect(large.body.data.price).toBeGreaterThan(small.body.data.price);
  });

  it("needs lat, lon and sqft without an address, naming each", async () => {
    const { status, body } = await get("/estimate?lat=47.6");
    expect(status).toBe(400);
    expect(body.error.details.map((d: { field: string }) => d.field)).toEqual(["lon", "sqft"]);
    expect((await get("/estimate?lat=47.6&lon=-122.3&sqft=99")).body.error.details[0].field).toBe("sqft");
    expect((await get("/estimate?lat=47.6&lon=-122.3&sqft=1500&date=2014-02-30")).body.error.details[0].field).toBe("date");
  });

  it("is a 422 far from every catalogued property", async () => {
    const { status, body } = await get("/estimate?lat=0&lon=0&sqft=1500");
    expect(status).toBe(422);
    expect(body.error.message).toContain("60 km");
  });
});

describe("GET /estimate by address", () => {
  it("values a catalogued Sacramento sale from its neighbours, never from itself", async () => {
    const row = sac.find((r) => r.street === "3526 HIGH ST")!;
    const { status, body } = await get(`/estimate?address=${encodeURIComponent("3526 High Street, Sacramento, CA 95838")}`);
    expect(status).toBe(200);
    const e = body.data;
    expect(e.market).toBe("sacramento");
    expect(e.valuation_date).toBeNull();
    expect(e.subject).toMatchObject({ address: "3526 High St", living_sqft: Number(row.sq_ft), bedrooms: Number(row.beds), latitude: Number(row.latitude) });
    expect(e.comparables.map((c: { address: string }) => c.address)).not.toContain("3526 High St");
    for (const c of e.comparables as Comparable[]) {
      const source = sac.find((r) => Number(r.latitude) === c.latitude && Number(r.longitude) === c.longitude && Number(r.price) === c.price);
      expect(source).toBeDefined();
    }
  });

  it("is a 404 with close matches for an unknown address", async () => {
    const { status, body } = await get(`/estimate?address=${encodeURIComponent("3526 Hihg St")}`);
    expect(status).toBe(404);
    expect(body.error.message).toContain("3526 High St");
    expect(body.error.details[0].field).toBe("address");
  });

  it("refuses an address together with coordinates", async () => {
    const { status, body } = await get("/estimate?address=3526%20High%20St&lat=38.6&lon=-121.4");
    expect(status).toBe(400);
    expect(body.error.details[0].field).toBe("address");
  });
});
