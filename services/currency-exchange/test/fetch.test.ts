import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type StartedService } from "@apiplat/testing";
import type { ServiceApp } from "@apiplat/service-kit";
import service, { type CurrencyRuntime } from "../src/service.js";
import { offlineSettings } from "../src/settings.js";
import { DEFAULT_FETCH_OPTIONS } from "../src/rates/fetcher.js";
import { feed, FEED_FILES } from "./feeds.js";
import { FeedServer } from "./feed-server.js";

// Two days after Banca d'Italia's recorded table: its {date} URL has to walk back from 02-13 to 02-11.
const NOW = new Date("2026-02-13T20:00:00Z");

const server = new FeedServer();
let started: StartedService;
let app: ServiceApp;
let runtime: CurrencyRuntime;
let headers: Record<string, string>;
let base: string;

beforeAll(async () => {
  server
    .route("/ecb/eurofxref-daily.xml", { status: 200, body: feed(FEED_FILES.ecbDaily), type: "text/xml" })
    .route("/nbp/tables/A", { status: 200, body: feed(FEED_FILES.nbpA), type: "application/json" })
    .route("/nbp/tables/B", { status: 200, body: feed(FEED_FILES.nbpB), type: "application/json" })
    // The API negotiates its format (JSON, CSV, ...): CSV only for Accept: text/csv. The JSON body is synthetic.
    .route("/bdi/dailyRates", (url, accept) =>
      url.searchParams.get("referenceDate") !== "2026-02-11"
        ? { status: 404, body: "" }
        : accept === "text/csv"
          ? { status: 200, body: feed(FEED_FILES.bdi), type: "text/csv" }
          : { status: 200, body: '{"resultsInfo":{"totalRecords":0}}', type: "application/json" },
    )
    .route("/cbr/XML_daily.asp", { status: 200, body: feed(FEED_FILES.cbr), type: "text/xml; charset=windows-1251" })
    .route("/boc/FX_RATES_DAILY", { status: 200, body: feed(FEED_FILES.boc), type: "application/json" });
  base = await server.start();
  started = await startService(service, {
    now: () => NOW,
    inject: { onRuntime: (built) => (runtime = built) },
    settings: offlineSettings({
      feeds: [
        { source: "ecb", url: `${base}/ecb/eurofxref-daily.xml` },
        { source: "nbp-a", url: `${base}/nbp/tables/A` },
        { source: "nbp-b", url: `${base}/nbp/tables/B` },
        { source: "bdi", url: `${base}/bdi/dailyRates?currencyIsoCode=EUR&referenceDate={date}` },
        { source: "cbr", url: `${base}/cbr/XML_daily.asp` },
        { source: "boc", url: `${base}/boc/FX_RATES_DAILY` },
      ],
      fetch: { ...DEFAULT_FETCH_OPTIONS, retries: 2, retryDelayMs: 1, timeoutMs: 5_000 },
    }),
  });
  app = started.app;
  ({ headers } = await started.subscribe("PRO"));
});

afterAll(async () => {
  await started?.close();
  await server.stop();
});

const get = (url: string) => app.inject({ method: "GET", url, headers });

describe("scheduled fetch against recorded feeds", () => {
  it("starts with no rates: 503 UNAVAILABLE rather than an empty answer, and /ready says why", async () => {
    const res = await get("/latest");
    expect([res.statusCode, res.json().error.code]).toEqual([503, "UNAVAILABLE"]);
    const ready = await app.inject({ method: "GET", url: "/ready" });
    expect([ready.statusCode, ready.json().error.details]).toEqual([503, [{ field: "rates", issue: "did not answer" }]]);
  });

  it("fetches, parses and stores every feed; a {date} URL walks back to the last published day", async () => {
    const outcomes = await runtime.fetchNow();
    expect(outcomes.map((o) => [o.source, o.ok, o.attempts, o.tables, o.latestDate])).toEqual([
      ["ecb", true, 1, 1, "2024-02-27"],
      ["nbp-a", true, 1, 18, "2026-03-25"],
      ["nbp-b", true, 1, 4, "2026-03-25"],
      ["bdi", true, 1, 1, "2026-02-11"],
      ["cbr", true, 1, 1, "2026-03-18"],
      ["boc", true, 1, 5, "2026-03-18"],
    ]);
    expect(server.hits.get("/bdi/dailyRates")).toBe(3); // 02-13 and 02-12: 404, 02-11: the table
    expect((await app.inject({ method: "GET", url: "/ready" })).statusCode).toBe(200);
  });

  it("serves the stored rates with their real age (the ECB recording is from 2024)", async () => {
    const { data } = (await get("/latest?symbols=USD,AFN&provenance=true")).json();
    expect(data).toEqual({
      base: "EUR",
      date: "2026-02-11",
      oldest_date: "2024-02-27",
      age_days: 2,
      rates: { AFN: 75.6731, USD: 1.0856 },
      provenance: { AFN: { source: "bdi", date: "2026-02-11" }, USD: { source: "ecb", date: "2024-02-27" } },
    });
  });

  it("a failing feed is retried, recorded, and leaves its last good rates in place", async () => {
    server.route("/cbr/XML_daily.asp", { status: 500, body: "maintenance" });
    server.route("/boc/FX_RATES_DAILY", { status: 200, body: "<html>We are updating our site</html>", type: "text/html" });
    const before = server.hits.get("/cbr/XML_daily.asp") ?? 0;
    const outcomes = await runtime.fetchNow();
    const cbr = outcomes.find((o) => o.source === "cbr")!;
    expect([cbr.ok, cbr.attempts, cbr.error]).toEqual([false, 3, `HTTP 500 from ${new URL(base).host}`]);
    expect(server.hits.get("/cbr/XML_daily.asp")).toBe(before + 3);
    const boc = outcomes.find((o) => o.source === "boc")!;
    expect([boc.ok, boc.attempts, boc.error]).toEqual([false, 3, "Bank of Canada: body is not JSON"]);
    expect(outcomes.filter((o) => o.ok).map((o) => o.source)).toEqual(["ecb", "nbp-a", "nbp-b", "bdi"]);

    const { data } = (await get("/sources")).json();
    const cbrState = data.sources.find((s: { id: string }) => s.id === "cbr");
    expect(cbrState).toMatchObject({ latest_date: "2026-03-18", tables: 1, last_fetch: { ok: false, attempts: 3 } });
    const stored = await runtime.store.tablesBetween("2026-03-18", "2026-03-18");
    const cbrTable = stored.find((t) => t.source === "cbr")!;
    expect([cbrTable.rates.length, cbrTable.rates.find((r) => r.currency === "EUR")?.value]).toEqual([53, "93.1557"]);
  });
});
