import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeAuth } from "@apiplat/testing/auth-suite";
import { startService, type StartedService } from "@apiplat/testing";
import service, { type CurrencyRuntime } from "../src/service.js";
import { offlineSettings } from "../src/settings.js";
import type { ServiceApp } from "@apiplat/service-kit";
import { FEEDS_DIR, FEED_FILES } from "./feeds.js";
import path from "node:path";

// The service's clock: the evening of 2026-03-18, when every recorded feed had published that day's table.
const NOW = new Date("2026-03-18T20:00:00Z");

let started: StartedService;
let app: ServiceApp;
let runtime: CurrencyRuntime;
let headers: Record<string, string>;

beforeAll(async () => {
  // An empty store at start-up is seeded from the recorded feeds folder, as the offline start does.
  started = await startService(service, {
    now: () => NOW,
    settings: offlineSettings({ seedPaths: [FEEDS_DIR], seedHistoryDays: 45 }),
    inject: { onRuntime: (built) => (runtime = built) },
  });
  app = started.app;
  ({ headers } = await started.subscribe("MEGA"));
});

afterAll(async () => {
  await started?.close();
});

const get = (url: string, extra: Record<string, string> = {}) => app.inject({ method: "GET", url, headers: { ...headers, ...extra } });

describeAuth({ started: () => started, method: "GET", url: "/latest" });

describe("GET /latest", () => {
  it("defaults to base EUR with ECB reference rates of the day, and says how old they are", async () => {
    const res = await get("/latest?symbols=USD,JPY,GBP");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe("success");
    expect(body.data).toEqual({
      base: "EUR",
      date: "2026-03-18",
      oldest_date: "2026-03-18",
      age_days: 0,
      rates: { GBP: 0.86393, JPY: 183.49, USD: 1.15 },
    });
  });

  it("rebases through EUR: USD->JPY = 183.49 / 1.15 to 12 significant digits", async () => {
    const res = await get("/latest?base=usd&symbols=jpy,EUR");
    expect(res.json().data.rates).toEqual({ EUR: 0.869565217391, JPY: 159.556521739 });
  });

  it("returns every supported currency without symbols: 150+ codes, base excluded", async () => {
    const { data } = (await get("/latest?base=USD")).json();
    const codes = Object.keys(data.rates);
    expect(codes.length).toBeGreaterThanOrEqual(150);
    expect(codes).not.toContain("USD");
    for (const code of ["EUR", "AFN", "RUB", "BYN", "IRR", "XOF", "VES", "ZWG", "CAD", "PLN"]) expect(codes).toContain(code);
    for (const code of ["XDR", "XAU", "BGN", "HRK"]) expect(codes).not.toContain(code);
    expect(data.oldest_date).toBe("2026-02-11"); // Banca d'Italia, the only source of some currencies in the recordings
  });

  it("names each rate's bank and publication date on request", async () => {
    const { data } = (await get("/latest?base=RUB&symbols=AFN,USD&provenance=true")).json();
    expect(data.provenance).toEqual({
      AFN: { source: "nbp-b", date: "2026-03-18" },
      RUB: { source: "cbr", date: "2026-03-18" },
      USD: { source: "ecb", date: "2026-03-18" },
    });
    expect(data.rates.USD).toBe(0.0123449236064); // 1.15 / 93.1557
  });

  it("400 naming unknown codes in symbols and base", async () => {
    const res = await get("/latest?base=XYZ&symbols=USD,ABC,QQQ");
    expect(res.statusCode).toBe(400);
    expect([res.headers.etag, res.headers["cache-control"]]).toEqual([undefined, undefined]); // errors are not cacheable
    expect(res.json().error.details).toEqual([
      { field: "base", issue: "has unknown currency codes: XYZ (GET /currencies lists the supported ones)" },
      { field: "symbols", issue: "has unknown currency codes: ABC, QQQ (GET /currencies lists the supported ones)" },
    ]);
  });

  it("400 for an ISO code no bank quotes, and for malformed codes", async () => {
    expect((await get("/latest?symbols=KPW")).json().error.details).toEqual([{ field: "symbols", issue: "has no rate as of 2026-03-18 for: KPW" }]);
    expect((await get("/latest?symbols=US,EURO")).json().error.details[0]).toEqual({
      field: "symbols",
      issue: "must be comma-separated 3-letter ISO 4217 codes; not codes: US, EURO",
    });
    const base = await get("/latest?base=EU");
    expect([base.statusCode, base.json().error.details[0].field]).toEqual([400, "base"]);
  });

  it("accepts a symbols list of 1000 characters and refuses 1001", async () => {
    const list = "USD" + ",JPY".repeat(249) + ","; // 1000 characters
    expect(list).toHaveLength(1000);
    expect((await get(`/latest?symbols=${list}`)).json().data.rates).toEqual({ JPY: 183.49, USD: 1.15 });
    const res = await get(`/latest?symbols=${list},`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([{ field: "symbols", issue: "must be at most 1000 characters long" }]);
  });
});

describe("GET /convert", () => {
  it("converts with the cross rate, rounded to the target's minor unit by default", async () => {
    const { data } = (await get("/convert?from=USD&to=JPY&amount=100")).json();
    expect(data).toEqual({
      from: "USD",
      to: "JPY",
      amount: "100",
      rate: "159.556521739",
      result: "15956",
      places: 0,
      date: "2026-03-18",
      oldest_date: "2026-03-18",
      age_days: 0,
    });
  });

  it("keeps every decimal exactly (no binary float drift)", async () => {
    const res = (await get("/convert?from=EUR&to=USD&amount=0.1&places=12")).json().data;
    expect([res.rate, res.result]).toEqual(["1.15", "0.115000000000"]);
    expect((await get("/convert?from=EUR&to=USD&amount=0.1")).json().data.result).toBe("0.12"); // 0.115, half away from zero
  });

  it("amount 0 gives 0", async () => {
    expect((await get("/convert?from=GBP&to=USD&amount=0")).json().data).toMatchObject({ amount: "0", result: "0.00" });
  });

  it("refuses negative amounts, exponents and separators, naming the field", async () => {
    for (const [amount, issue] of [
      ["-5", "must not be negative"],
      ["1e5", "must be a plain decimal number such as 1234.56 (no sign, exponent or thousands separator)"],
      ["1,000", "must be a plain decimal number such as 1234.56 (no sign, exponent or thousands separator)"],
    ]) {
      const res = await get(`/convert?from=EUR&to=USD&amount=${encodeURIComponent(amount)}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toEqual([{ field: "amount", issue }]);
    }
  });

  it("accepts 18 integer digits and 12 decimals, refuses one more of either", async () => {
    const max = "999999999999999999.999999999999";
    const { data } = (await get(`/convert?from=EUR&to=USD&amount=${max}&places=12`)).json();
    expect(data.result).toBe("1149999999999999999.999999999999");
    expect((await get("/convert?from=EUR&to=USD&amount=1000000000000000000")).json().error.details).toEqual([
      { field: "amount", issue: "must have at most 18 digits before the decimal point" },
    ]);
    expect((await get("/convert?from=EUR&to=USD&amount=1.0000000000001")).json().error.details).toEqual([
      { field: "amount", issue: "must have at most 12 digits after the decimal point" },
    ]);
  });

  it("places: 12 accepted, 13 refused", async () => {
    expect((await get("/convert?from=EUR&to=JPY&amount=1&places=12")).json().data.result).toBe("183.490000000000");
    const res = await get("/convert?from=EUR&to=JPY&amount=1&places=13");
    expect(res.json().error.details).toEqual([{ field: "places", issue: "must be at most 12" }]);
  });

  it("400 naming an unknown currency, 400 when amount is missing", async () => {
    expect((await get("/convert?from=USD&to=ABC&amount=1")).json().error.details).toEqual([
      { field: "to", issue: "has unknown currency codes: ABC (GET /currencies lists the supported ones)" },
    ]);
    expect((await get("/convert?from=USD&to=EUR")).json().error.details).toEqual([{ field: "amount", issue: "is required" }]);
  });

  it("converts at a past day's rates with date=", async () => {
    const { data } = (await get("/convert?from=EUR&to=USD&amount=10&date=2026-03-05")).json();
    expect(data).toMatchObject({ rate: "1.1618", result: "11.62", date: "2026-03-05", age_days: 13 });
  });
});

describe("GET /historical/{date} and /timeseries", () => {
  it("serves a past day's ECB rates", async () => {
    const { data } = (await get("/historical/2026-03-05?symbols=USD,JPY")).json();
    expect(data).toEqual({
      base: "EUR",
      date: "2026-03-05",
      oldest_date: "2026-03-05",
      requested_date: "2026-03-05",
      age_days: 13,
      rates: { JPY: 183.03, USD: 1.1618 },
    });
  });

  it("carries the previous table over a weekend", async () => {
    const { data } = (await get("/historical/2026-03-08?symbols=USD")).json(); // a Sunday
    expect([data.date, data.rates.USD]).toEqual(["2026-03-06", 1.1561]);
  });

  it("404 when no bank published within 14 days; 400 outside 1999-01-04..today or not a date", async () => {
    expect((await get("/historical/2025-01-01")).statusCode).toBe(404);
    expect((await get("/historical/2026-03-19")).json().error.details).toEqual([{ field: "date", issue: "must be between 1999-01-04 and today (2026-03-18)" }]);
    expect((await get("/historical/1999-01-03")).statusCode).toBe(400);
    expect((await get("/historical/2026-02-30")).json().error.details).toEqual([{ field: "date", issue: "must be a calendar date YYYY-MM-DD" }]);
  });

  it("timeseries: one entry per publication day", async () => {
    const { data } = (await get("/timeseries?start=2026-03-16&end=2026-03-18&symbols=USD")).json();
    expect(data).toEqual({
      base: "EUR",
      start_date: "2026-03-16",
      end_date: "2026-03-18",
      dates: 3,
      rates: { "2026-03-16": { USD: 1.1478 }, "2026-03-17": { USD: 1.1531 }, "2026-03-18": { USD: 1.15 } },
    });
  });

  it("timeseries span: 366 days accepted, 367 refused; end before start refused", async () => {
    expect((await get("/timeseries?start=2025-03-18&end=2026-03-18&symbols=USD")).statusCode).toBe(200);
    expect((await get("/timeseries?start=2025-03-17&end=2026-03-18&symbols=USD")).json().error.details).toEqual([
      { field: "end", issue: "must be at most 366 days from start, both counted" },
    ]);
    expect((await get("/timeseries?start=2026-03-18&end=2026-03-17")).json().error.details).toEqual([{ field: "end", issue: "must not be before start" }]);
  });
});

describe("GET /currencies and /sources", () => {
  it("lists 150+ currencies with names and the banks covering them", async () => {
    const { data } = (await get("/currencies")).json();
    expect(data.count).toBeGreaterThanOrEqual(150);
    expect(data.count).toBe(data.currencies.length);
    const byCode = new Map(data.currencies.map((c: { code: string }) => [c.code, c]));
    expect(byCode.get("EUR")).toEqual({
      code: "EUR",
      name: "Euro",
      minor_units: 2,
      rate_source: null,
      rate_date: null,
      sources: ["ecb", "bdi", "nbp-a", "boc", "cbr"],
    });
    expect(byCode.get("AFN")).toEqual({
      code: "AFN",
      name: "Afghan Afghani",
      minor_units: 2,
      rate_source: "nbp-b",
      rate_date: "2026-03-18",
      sources: ["bdi", "nbp-b"],
    });
    expect(byCode.get("RUB")).toMatchObject({ name: "Russian Ruble", rate_source: "cbr", rate_date: "2026-03-18" });
  });

  it("shows each feed's latest table", async () => {
    const { data } = (await get("/sources")).json();
    expect(data.sources.map((s: { id: string; latest_date: string }) => [s.id, s.latest_date])).toEqual([
      ["ecb", "2026-04-13"],
      ["bdi", "2026-02-11"],
      ["nbp-a", "2026-03-25"],
      ["boc", "2026-03-18"],
      ["nbp-b", "2026-03-25"],
      ["cbr", "2026-04-25"],
    ]);
  });
});

describe("response cache", () => {
  it("caches for an hour: MISS then HIT, Cache-Control and ETag, 304 on If-None-Match", async () => {
    const first = await get("/latest?symbols=CHF");
    const second = await get("/latest?symbols=CHF");
    expect([first.headers["x-cache"], second.headers["x-cache"]]).toEqual(["MISS", "HIT"]);
    expect(second.headers["cache-control"]).toBe("private, max-age=3600");
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.json().data).toEqual(first.json().data);
    const revalidated = await get("/latest?symbols=CHF", { "if-none-match": String(first.headers.etag) });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe("");
  });

  it("shares cached answers between replicas through Redis", async () => {
    const first = await get("/latest?symbols=NOK&base=SEK");
    expect(first.headers["x-cache"]).toBe("MISS");
    const replica = await startService(service, { platform: started.platform, settings: offlineSettings() });
    try {
      const res = await replica.app.inject({ method: "GET", url: "/latest?symbols=NOK&base=SEK", headers });
      expect([res.headers["x-cache"], res.headers.etag]).toEqual(["HIT", first.headers.etag]);
      expect(res.json().data).toEqual(first.json().data);
    } finally {
      await replica.close();
    }
  });

  it("new rates change the ETag and bypass the cached answer", async () => {
    const before = await get("/latest?symbols=SEK");
    await get("/latest?symbols=SEK");
    await runtime.ingest([path.join(FEEDS_DIR, FEED_FILES.cbr)]);
    const after = await get("/latest?symbols=SEK", { "if-none-match": String(before.headers.etag) });
    expect(after.statusCode).toBe(200);
    expect(after.headers["x-cache"]).toBe("MISS");
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });
});

describe("platform routes", () => {
  it("documents every endpoint in OpenAPI and is ready once seeded", async () => {
    const spec = (await app.inject({ method: "GET", url: "/openapi.json" })).json();
    expect(Object.keys(spec.paths).sort()).toEqual(["/convert", "/currencies", "/historical/{date}", "/latest", "/sources", "/timeseries"]);
    expect((await app.inject({ method: "GET", url: "/ready" })).json().data.checks).toMatchObject({ rates: "ok" });
  });
});

describe("minor units", () => {
  it("rounds to ISO 4217 minor units by default: BHD 3, KRW 0, AFN 2", async () => {
    const bhd = (await get("/convert?from=EUR&to=BHD&amount=1")).json().data;
    expect([bhd.places, bhd.result.split(".")[1]?.length]).toEqual([3, 3]);
    expect((await get("/convert?from=EUR&to=KRW&amount=1")).json().data.places).toBe(0);
    expect((await get("/convert?from=EUR&to=AFN&amount=1")).json().data.places).toBe(2);
  });
});
