import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeAuth } from "@apiplat/testing/auth-suite";
import { yearKey } from "../src/cache/holiday-cache.js";
import { megaCaller, type Caller } from "./helpers.js";
import { startService, TEST_REDIS_URL } from "@apiplat/testing";
import service from "../src/service.js";

let h: Caller;
let redis: Redis;
beforeAll(async () => {
  h = await megaCaller(await startService(service, { settings: { warmUp: false } }));
  redis = new Redis(TEST_REDIS_URL);
});
afterAll(async () => {
  redis?.disconnect();
  await h?.close();
});

describe("GET /countries", () => {
  it("lists every country the engine has a calendar for, with names, zones and subdivisions", async () => {
    const { status, headers, body, data } = await h.get("/countries");
    expect(status).toBe(200);
    expect(headers["cache-control"]).toBe("private, max-age=86400");
    expect(headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(body.status).toBe("success");
    expect(Date.parse(body.timestamp)).toBeGreaterThan(Date.parse("2020-01-01"));
    // date-holidays' 207, and 23 served from the corrections: Papua New Guinea, Cambodia, Iraq, Mongolia, Syria, Yemen,
    // eleven Pacific and South Atlantic ones (FK KI MH NR NU PN PW SB TK TV WS) and six territories without public
    // holidays (AQ, BV, GS, HM, TF, UM)
    expect(data.count).toBe(230);
    expect(data.countries).toHaveLength(230);
    const codes = data.countries.map((country) => country.code);
    expect(codes).toEqual([...codes].sort());
    expect(codes).toEqual(expect.arrayContaining(["BR", "DE", "JP", "US", "GB", "IN", "ZA", "AU"]));
    const germany = data.countries.find((country) => country.code === "DE");
    expect(germany).toEqual({
      code: "DE",
      name: "Germany",
      timezone: "Europe/Berlin",
      languages: ["de", "en"],
      subdivisions: expect.any(Array),
    });
    expect(germany?.subdivisions.map((subdivision) => subdivision.code)).toEqual([
      "DE-BB",
      "DE-BE",
      "DE-BW",
      "DE-BY",
      "DE-HB",
      "DE-HE",
      "DE-HH",
      "DE-MV",
      "DE-NI",
      "DE-NW",
      "DE-RP",
      "DE-SH",
      "DE-SL",
      "DE-SN",
      "DE-ST",
      "DE-TH",
    ]);
    expect(germany?.subdivisions.find((subdivision) => subdivision.code === "DE-BY")).toEqual({
      code: "DE-BY",
      name: "Bayern",
      regions: [
        { code: "DE-BY-A", name: "Stadt Augsburg" },
        { code: "DE-BY-EVANG", name: "Predominantly protestant communities" },
        { code: "DE-BY-KATH", name: "Predominantly catholic communities" },
      ],
    });
    expect(data.countries.find((country) => country.code === "JP")).toEqual({
      code: "JP",
      name: "Japan",
      timezone: "Asia/Tokyo",
      languages: ["ja", "en"],
      subdivisions: [],
    });
    expect(data.countries.find((country) => country.code === "AT")?.languages).toEqual(["de-AT", "de", "en"]);
    expect(data.countries.find((country) => country.code === "CZ")?.languages).toEqual(["cs", "en"]);
    for (const country of data.countries) {
      for (const subdivision of country.subdivisions) expect(subdivision.code.startsWith(`${country.code}-`)).toBe(true);
    }
  });

  it("answers 304 to a client holding the current ETag", async () => {
    const first = await h.get("/countries");
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const second = await h.get("/countries", { "if-none-match": etag });
    expect(second.status).toBe(304);
    expect(second.body).toBeUndefined();
    expect((await h.get("/countries", { "if-none-match": '"stale"' })).status).toBe(200);
  });
});

describe("caching holidays for 24 hours", () => {
  it("stores the computed year in Redis with a 24-hour TTL", async () => {
    const { status } = await h.get("/holidays?country=NL&year=2031");
    expect(status).toBe(200);
    const keys = await redis.keys(`test:*:${yearKey("NL", 2031)}`);
    expect(keys).toHaveLength(1);
    const ttl = await redis.ttl(keys[0]);
    expect(ttl).toBeGreaterThan(86_400 - 60);
    expect(ttl).toBeLessThanOrEqual(86_400);
    const stored = JSON.parse((await redis.get(keys[0]))!);
    expect(stored.holidays.find((holiday: { local_name: string }) => holiday.local_name === "Koningsdag")).toMatchObject({ date: "2031-04-26" }); // 27 April 2031 is a Sunday: moved to Saturday
  });

  it("serves a year another instance already stored, without computing it again", async () => {
    const entry = {
      expiresAt: Date.now() + 60_000,
      holidays: [
        {
          date: "2032-06-17",
          end_date: "2032-06-17",
          start: "2032-06-17T00:00:00+00:00",
          end: "2032-06-18T00:00:00+00:00",
          name: "Stored by another instance",
          local_name: "Stored by another instance",
          country_code: "IS",
          global: true,
          counties: null,
          regions: null,
          types: ["public"],
          substitute: false,
        },
      ],
    };
    await h.platform.deps.kv.set(yearKey("IS", 2032), JSON.stringify(entry), 60);
    const { data } = await h.get("/holidays?country=IS&year=2032");
    expect(data.holidays.map((holiday) => holiday.name)).toEqual(["Stored by another instance"]);
  });

  it("computes a cold year in slices, so the event loop keeps turning", async () => {
    let longestGap = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 1);
    const started = performance.now();
    const { status } = await h.get("/holidays?country=US&year=1990");
    const elapsed = performance.now() - started;
    clearInterval(ticker);
    expect(status).toBe(200);
    // 51 states and 2 local areas are evaluated one per turn: no single stall comes near the whole.
    expect(longestGap).toBeLessThan(elapsed / 3);
  });

  it("sends Cache-Control and an ETag that changes with the question", async () => {
    const a = await h.get("/holidays?country=FR&year=2026");
    const b = await h.get("/holidays?country=FR&year=2027");
    const c = await h.get("/holidays?country=FR&year=2026&types=bank");
    expect(a.headers["cache-control"]).toBe("private, max-age=86400");
    expect(new Set([a.headers.etag, b.headers.etag, c.headers.etag]).size).toBe(3);
    expect((await h.get("/holidays?country=FR&year=2026", { "if-none-match": a.headers.etag as string })).status).toBe(304);
    expect((await h.get("/holidays?country=FR&year=2026", { "if-none-match": `W/${a.headers.etag}` })).status).toBe(304);
    expect((await h.get("/holidays?country=FR&year=2026", { "if-none-match": `"old", ${a.headers.etag}` })).status).toBe(304);
    expect((await h.get("/holidays?country=FR&year=2026", { "if-none-match": "*" })).status).toBe(304);
  });
});

describeAuth({ started: () => h.started, method: "GET", url: "/holidays?country=DE&year=2026" });

describe("metering", () => {
  it("metered responses carry the plan's request counters", async () => {
    const { headers } = await h.get("/countries");
    expect(headers["x-ratelimit-requests-limit"]).toBe("1000000");
    expect(Number(headers["x-ratelimit-requests-remaining"])).toBeLessThan(1_000_000);
  });

  it("/health and /openapi.json need no key; OpenAPI documents the four endpoints", async () => {
    expect((await h.app.inject({ method: "GET", url: "/health" })).statusCode).toBe(200);
    const openapi = (await h.app.inject({ method: "GET", url: "/openapi.json" })).json();
    expect(Object.keys(openapi.paths)).toEqual(expect.arrayContaining(["/holidays", "/next", "/is-holiday", "/countries"]));
  });
});

describe("warm-up", () => {
  it("fills the store with this year and next for every country after start, and stops on close", async () => {
    const warm = await megaCaller(await startService(service, { now: () => new Date("2030-06-01T12:00:00Z"), settings: { warmUp: true } }));
    try {
      await warm.app.ready();
      const deadline = Date.now() + 20_000;
      let stored: string | null = null;
      while (!stored && Date.now() < deadline) {
        stored = await warm.platform.deps.kv.get(yearKey("AD", 2030));
        if (!stored) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(JSON.parse(stored!).holidays[0]).toMatchObject({ date: "2030-01-01", country_code: "AD", global: true });
    } finally {
      await warm.close();
    }
  });
});
