import type { StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getter, kingCounty, km, newYork, sacramento, startRealEstate } from "./helpers.js";

let started: StartedService;
let get: ReturnType<typeof getter>;
const kc = kingCounty();
const sac = sacramento();
const ny = newYork();
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** "Wed May 21 00:00:00 EDT 2008" -> "2008-05-21", written out again here. */
const sacramentoDate = (text: string) => {
  const [, month, day, , , year] = text.split(" ");
  return `${year}-${String(MONTHS.indexOf(month) + 1).padStart(2, "0")}-${day.padStart(2, "0")}`;
};
const newestSacramentoSale = sac
  .map((r) => sacramentoDate(r.sale_date))
  .sort()
  .at(-1)!;
const kcDate = (r: Record<string, string>) => `${r.date.slice(0, 4)}-${r.date.slice(4, 6)}-${r.date.slice(6, 8)}`;
const kcId = (r: Record<string, string>) => `kc-${r.id}-${r.date.slice(0, 8)}`;

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
    const { status, data } = await get(`/estimate?lat=${lat}&lon=${lon}&sqft=1800&bedrooms=3&bathrooms=2&year_built=1985`);
    expect(status).toBe(200);
    const e = data;
    expect(e).toMatchObject({ currency: "USD", interval_coverage: 0.8, market: "king-county", price_kind: "sale" });
    expect(e.valuation_date).toBe(
      kc
        .map((r) => r.date.slice(0, 8))
        .sort()
        .at(-1)!
        .replace(/^(\d{4})(\d{2})(\d{2})$/, "$1-$2-$3"),
    );
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
    expect(large.data.price).toBeGreaterThan(small.data.price);
  });

  it("needs lat, lon and sqft without an address, naming each", async () => {
    const { status, error } = await get("/estimate?lat=47.6");
    expect(status).toBe(400);
    expect(error.details?.map((d: { field: string }) => d.field)).toEqual(["lon", "sqft"]);
    expect((await get("/estimate?lat=47.6&lon=-122.3&sqft=99")).error.details?.[0].field).toBe("sqft");
    expect((await get("/estimate?lat=47.6&lon=-122.3&sqft=1500&date=2014-02-30")).error.details?.[0].field).toBe("date");
  });

  it("is a 422 far from every catalogued property", async () => {
    const { status, error } = await get("/estimate?lat=0&lon=0&sqft=1500");
    expect(status).toBe(422);
    expect(error.message).toContain("60 km");
  });
});

describe("GET /estimate by address", () => {
  it("values a catalogued Sacramento sale from its neighbours, never from itself", async () => {
    const row = sac.find((r) => r.street === "3526 HIGH ST")!;
    const { status, data } = await get(`/estimate?address=${encodeURIComponent("3526 High Street, Sacramento, CA 95838")}`);
    expect(status).toBe(200);
    const e = data;
    expect(e.market).toBe("sacramento");
    // Sacramento's sales are of one week (no time trend): the value is as of its newest sale.
    expect(e.valuation_date).toBe(newestSacramentoSale);
    expect(e.valuation_date_basis).toBe("newest_sale");
    expect(e.subject.identified_by).toBe("address");
    expect(e.subject.excluded_records).toContain(e.subject.id);
    expect(e.last_sale).toEqual({ id: e.subject.id, date: sacramentoDate(row.sale_date), price: Number(row.price), adjusted_price: Number(row.price) });
    expect(e.subject).toMatchObject({ address: "3526 High St", living_sqft: Number(row.sq_ft), bedrooms: Number(row.beds), latitude: Number(row.latitude) });
    expect(e.comparables.map((c) => c.address)).not.toContain("3526 High St");
    for (const c of e.comparables as Comparable[]) {
      const source = sac.find((r) => Number(r.latitude) === c.latitude && Number(r.longitude) === c.longitude && Number(r.price) === c.price);
      expect(source).toBeDefined();
    }
  });

  it("is a 404 with close matches for an unknown address", async () => {
    const { status, error } = await get(`/estimate?address=${encodeURIComponent("3526 Hihg St")}`);
    expect(status).toBe(404);
    expect(error.message).toContain("3526 High St");
    expect(error.details?.[0].field).toBe("address");
  });

  it("refuses an address together with coordinates", async () => {
    const { status, error } = await get("/estimate?address=3526%20High%20St&lat=38.6&lon=-121.4");
    expect(status).toBe(400);
    expect(error.details?.[0].field).toBe("address");
  });
});

describe("GET /estimate of a catalogued sale", () => {
  const attributes = (r: Record<string, string>) =>
    new URLSearchParams({ lat: r.lat, lon: r.long, sqft: r.sqft_living, bedrooms: r.bedrooms, bathrooms: r.bathrooms, year_built: r.yr_built });

  it("never values a King County house by its own sale, and reports that sale as last_sale", async () => {
    // Every 100th sale of the catalogue, valued from the attributes the file gives it.
    for (const row of kc.filter((_, i) => i % 100 === 0)) {
      const { status, data } = await get(`/estimate?${attributes(row)}`);
      expect(status).toBe(200);
      const e = data;
      const sameParcel = kc.filter((r) => r.id === row.id);
      for (const c of e.comparables as Comparable[]) {
        expect(c.id.split("-")[1]).not.toBe(row.id);
        // Nothing on the subject's spot with its living area is left among the comparables.
        expect(
          c.distance_km > 0.025 || Math.abs(Math.log(Number(row.sqft_living) / (c as unknown as { living_sqft: number }).living_sqft)) > Math.log(1.02),
        ).toBe(true);
      }
      expect(e.subject.excluded_records).toEqual(expect.arrayContaining(sameParcel.map(kcId)));
      const twins = kc.filter(
        (r) => r.id !== row.id && r.lat === row.lat && r.long === row.long && r.sqft_living === row.sqft_living && r.yr_built === row.yr_built,
      );
      if (twins.length > 0) continue; // two parcels that cannot be told apart: neither is named
      const newest = sameParcel.sort((a, b) => (a.date < b.date ? 1 : -1))[0];
      expect(e.subject).toMatchObject({ identified_by: "location_and_attributes", id: kcId(newest) });
      expect(e.last_sale).toMatchObject({ id: kcId(newest), date: kcDate(newest), price: Number(newest.price) });
    }
  });

  it("moves a house's last sale to the valuation date with the market's trend, and leaves every sale of its parcel out", async () => {
    const parcel = "6021501535"; // sold 2014-07-25 for 430,000 and 2014-12-23 for 700,000
    const [first, second] = kc.filter((r) => r.id === parcel).sort((a, b) => (a.date < b.date ? -1 : 1));
    const atSecond = (await get(`/estimate?property_id=${kcId(first)}&date=${kcDate(second)}`)).data;
    expect(atSecond.subject).toMatchObject({ identified_by: "property_id", id: kcId(first), living_sqft: Number(first.sqft_living) });
    expect(atSecond.last_sale).toEqual({ id: kcId(second), date: kcDate(second), price: Number(second.price), adjusted_price: Number(second.price) });
    expect(atSecond.subject.excluded_records).toEqual([kcId(first), kcId(second)].sort());
    expect(atSecond.comparables.map((c: Comparable) => c.id)).not.toContain(kcId(first));
    expect(atSecond.valuation_date_basis).toBe("requested");
    // Before the second sale, the first is the last one; prices rose in King County that year, so it is moved up.
    const between = (await get(`/estimate?property_id=${kcId(second)}&date=2014-10-01`)).data;
    expect(between.last_sale).toMatchObject({ id: kcId(first), date: kcDate(first), price: Number(first.price) });
    expect(between.last_sale?.adjusted_price).toBeGreaterThan(Number(first.price));
    const later = (await get(`/estimate?property_id=${kcId(second)}`)).data;
    expect(later.valuation_date).toBe(kc.map(kcDate).sort().at(-1));
    expect(later.valuation_date_basis).toBe("newest_sale");
    expect(later.last_sale?.adjusted_price).toBeGreaterThan(Number(second.price));
  });

  it("states the date of every estimate, and refuses one its market's data cannot date", async () => {
    const row = sac.find((r) => r.street === "3526 HIGH ST")!;
    const sacramentoEstimate = (await get(`/estimate?lat=${row.latitude}&lon=${row.longitude}&sqft=1500`)).data;
    expect(sacramentoEstimate.valuation_date).toBe(newestSacramentoSale);
    const tooLate = await get(`/estimate?lat=${row.latitude}&lon=${row.longitude}&sqft=1500&date=2024-01-01`);
    expect(tooLate.status).toBe(422);
    expect(tooLate.error.details).toEqual([{ field: "date", issue: expect.stringContaining("2008-05") }]);
    const listing = ny.find((r) => r.ADDRESS === "2 E 55th St Unit 803")!;
    const nyc = (await get(`/estimate?address=${encodeURIComponent(`${listing.ADDRESS}, New York`)}`)).data;
    expect(nyc).toMatchObject({
      market: "new-york",
      price_kind: "list",
      valuation_date: "2024-03-01",
      valuation_date_basis: "listings_as_of",
      last_sale: null,
    });
    expect(nyc.listing).toMatchObject({ price: Number(listing.PRICE), status: "for_sale" });
    expect(nyc.comparables.map((c) => c.address)).not.toContain(listing.ADDRESS);
    const dated = await get(`/estimate?address=${encodeURIComponent(listing.ADDRESS)}&date=2023-06-01`);
    expect(dated.status).toBe(422);
    expect(dated.error.details?.[0].field).toBe("date");
  });

  it("is a 404 for an unknown property_id, and a 400 for two ways of naming the subject", async () => {
    expect((await get("/estimate?property_id=kc-1-20140101")).status).toBe(404);
    const both = await get(`/estimate?property_id=${kcId(kc[0])}&lat=47.6&lon=-122.3`);
    expect(both.status).toBe(400);
    expect(both.error.details?.[0].field).toBe("property_id");
  });
});
