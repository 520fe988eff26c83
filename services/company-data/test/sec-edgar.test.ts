/**
 * The live SEC EDGAR adapter against a local server on 127.0.0.1 that serves the dataset's real files at SEC's
 * paths, reached through the outbound guard with an injected resolver (loopback allowed in this test only).
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { runIngestion } from "@apiplat/catalogue";
import { createOutboundClient } from "@apiplat/outbound-guard";
import type { StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { secEdgarSource } from "../src/ingest/sec-edgar.js";
import { readSettings } from "../src/settings.js";
import { datasetsDir, getter, secRows, startCompanyData, submissions } from "./helpers.js";

const USER_AGENT = "apiplat company-data tests admin@example.com";
const FILES: Record<string, string> = {
  "/files/company_tickers_exchange.json": "sec_company_tickers_exchange.json",
  "/submissions/CIK0000717423.json": "edgar_submissions_CIK0000717423.json",
};

let started: StartedService;
let sec: Server;
let port = 0;
const requests: { path: string; host: string; userAgent: string | undefined; at: number }[] = [];

/** sec.test names resolve to loopback here, and nowhere else: no DNS query leaves the test. */
const resolve = async (hostname: string) => {
  if (hostname === "www.sec.test" || hostname === "data.sec.test") return [{ address: "127.0.0.1", family: 4 }];
  throw Object.assign(new Error(`${hostname} does not resolve`), { code: "ENOTFOUND" });
};

beforeAll(async () => {
  sec = createServer((req, res) => {
    requests.push({ path: req.url ?? "", host: String(req.headers.host), userAgent: req.headers["user-agent"], at: performance.now() });
    const file = FILES[req.url ?? ""];
    if (!file) return res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
    res.writeHead(200, { "content-type": "application/json" }).end(readFileSync(path.join(datasetsDir, "company-data", file)));
  });
  await new Promise<void>((done) => sec.listen(0, "127.0.0.1", done));
  port = (sec.address() as AddressInfo).port;
  started = await startCompanyData({ load: false });
});
afterAll(async () => {
  await started.close();
  await new Promise<void>((done) => sec.close(() => done()));
});

function source(options: { ciks: number[]; requestsPerSecond: number; allowLoopback?: boolean }) {
  return secEdgarSource({
    userAgent: USER_AGENT,
    wwwBase: `http://www.sec.test:${port}`,
    dataBase: `http://data.sec.test:${port}/`,
    requestsPerSecond: options.requestsPerSecond,
    ciks: options.ciks,
    maxSubmissions: 100,
    outbound: createOutboundClient({ allowCidrs: options.allowLoopback === false ? [] : ["127.0.0.0/8"], resolve }),
  });
}

describe("SEC EDGAR adapter", () => {
  it("loads the ticker list and a company's submissions, names SEC EDGAR as their source, and skips a CIK SEC does not have", async () => {
    requests.length = 0;
    const run = await runIngestion(started.platform.deps.db, source({ ciks: [717423, 320193], requestsPerSecond: 10 }), { datasetsDir, now: () => new Date() });
    const tickers = secRows().length;
    expect(run).toMatchObject({ status: "succeeded", rows_read: tickers + 2, rows_skipped: 1 });
    expect(run.skipped).toEqual([{ line: tickers + 2, reason: "submissions of CIK 320193: SEC EDGAR answered HTTP 404 for /submissions/CIK0000320193.json" }]);
    expect(requests.map((r) => `${r.host.split(":")[0]}${r.path}`)).toEqual([
      "www.sec.test/files/company_tickers_exchange.json",
      "data.sec.test/submissions/CIK0000717423.json",
      "data.sec.test/submissions/CIK0000320193.json",
    ]);
    expect(requests.every((r) => r.userAgent === USER_AGENT)).toBe(true);

    const document = submissions();
    const get = getter(started, (await started.subscribe("PRO")).headers);
    const { data } = await get("/company/717423?filings_limit=1");
    expect(data).toMatchObject({
      legal_name: document.name,
      ticker: "MUR",
      industry: document.sicDescription,
      sources: { legal_name: "sec-edgar", ticker: "sec-edgar", industry: "sec-edgar", headquarters: "sec-edgar" },
      filings: {
        total: document.filings.recent.accessionNumber.length,
        recent: [{ accession_number: document.filings.recent.accessionNumber[0], source: "sec-edgar" }],
      },
    });
    const apple = await get("/company/320193");
    expect(apple.data).toMatchObject({ legal_name: "Apple Inc.", ticker: "AAPL", sources: { legal_name: "sec-edgar", cik: "sec-edgar" } });
  }, 120_000);

  it("never sends more than 10 requests a second, even when configured for more", async () => {
    requests.length = 0;
    const ciks = [717423, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const run = await runIngestion(started.platform.deps.db, source({ ciks, requestsPerSecond: 50 }), { datasetsDir, now: () => new Date() });
    expect(run.status).toBe("succeeded");
    expect(requests).toHaveLength(ciks.length + 1);
    const arrivals = requests.map((r) => r.at);
    // SEC's limit as SEC sees it: never 11 arrivals within one second. (The adapter starts requests 105 ms apart; an
    // unpaced one would send these within a few milliseconds.) One gap alone can be short on a loaded machine, when a
    // request's arrival was delayed and the next one's was not: the window and the mean gap are what the pacing sets.
    for (let i = 0; i + 10 < arrivals.length; i++) expect(arrivals[i + 10] - arrivals[i]).toBeGreaterThan(1000);
    expect((arrivals.at(-1)! - arrivals[0]) / (arrivals.length - 1)).toBeGreaterThanOrEqual(100);
  }, 120_000);

  it("goes through the outbound guard: without loopback allowed, nothing is fetched", async () => {
    requests.length = 0;
    const run = await runIngestion(started.platform.deps.db, source({ ciks: [717423], requestsPerSecond: 10, allowLoopback: false }), {
      datasetsDir,
      now: () => new Date(),
    });
    expect(requests).toHaveLength(0);
    expect(run.rows_skipped).toBe(2);
    expect(run.skipped[0].reason).toMatch(/^company tickers: .*private, loopback/);
  }, 120_000);

  it("reads its settings: on only with SEC_USER_AGENT, at most SEC's 10 requests a second", () => {
    expect(readSettings({}).secUserAgent).toBeNull();
    expect(readSettings({ SEC_USER_AGENT: USER_AGENT })).toMatchObject({
      secUserAgent: USER_AGENT,
      secRequestsPerSecond: 10,
      secWwwBase: "https://www.sec.gov",
      secDataBase: "https://data.sec.gov",
    });
    expect(readSettings({ COMPANY_DATA_SEC_REQUESTS_PER_SECOND: "10" }).secRequestsPerSecond).toBe(10);
    expect(() => readSettings({ COMPANY_DATA_SEC_REQUESTS_PER_SECOND: "11" })).toThrow("COMPANY_DATA_SEC_REQUESTS_PER_SECOND must be an integer from 1 to 10");
    expect(readSettings({ COMPANY_DATA_SEC_CIKS: "320193, 717423" }).secCiks).toEqual([320193, 717423]);
    expect(() => readSettings({ COMPANY_DATA_SEC_CIKS: "apple" })).toThrow("COMPANY_DATA_SEC_CIKS");
  });
});
