import { afterAll, beforeAll, describe, expect, it } from "vitest";
import path from "node:path";
import { startService, type StartedService } from "@apiplat/testing";
import type { ServiceApp } from "@apiplat/service-kit";
import service from "../src/service.js";
import { offlineSettings } from "../src/settings.js";
import { FEEDS_DIR, FEED_FILES } from "./feeds.js";

// The one-command local start: embedded PGlite and the in-process store instead of PostgreSQL and Redis.
let started: StartedService;
let app: ServiceApp;
let headers: Record<string, string>;

beforeAll(async () => {
  const seedPaths = [FEED_FILES.nbpA, FEED_FILES.nbpB, FEED_FILES.cbr].map((f) => path.join(FEEDS_DIR, f));
  started = await startService(service, { embedded: true, now: () => new Date("2026-03-18T20:00:00Z"), settings: offlineSettings({ seedPaths }) });
  app = started.app;
  ({ headers } = await started.subscribe("BASIC"));
}, 120_000);

afterAll(async () => {
  await started?.close();
});

describe("embedded database", () => {
  it("seeds, rebases and serves on PGlite with the same SQL", async () => {
    const res = await app.inject({ method: "GET", url: "/latest?base=PLN&symbols=EUR,AFN,RUB&provenance=true", headers });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.provenance).toEqual({
      AFN: { source: "nbp-b", date: "2026-03-18" },
      PLN: { source: "nbp-a", date: "2026-03-18" },
      RUB: { source: "cbr", date: "2026-03-18" },
    });
    expect(Object.keys(data.rates)).toEqual(["AFN", "EUR", "RUB"]); // EUR, the pivot, has no provenance of its own
    expect(data.rates.AFN).toBe(17.3175166681); // 1 / 0.057745 PLN per AFN (NBP table B), through EUR
    const sources = (await app.inject({ method: "GET", url: "/sources", headers })).json().data.sources;
    expect(sources.filter((s: { tables: number }) => s.tables > 0).map((s: { id: string }) => s.id)).toEqual(["nbp-a", "nbp-b", "cbr"]);
  });
});
