/**
 * Live ingestion from SEC EDGAR, used when SEC_USER_AGENT is set: the company ticker list
 * (`<www base>/files/company_tickers_exchange.json`) and the submissions JSON of chosen companies
 * (`<data base>/submissions/CIK##########.json`), in the same formats as the dataset files, so they fill the same
 * tables. SEC's fair-access policy: at most 10 requests per second, and a User-Agent naming the requester and a
 * contact. Every request goes through the outbound guard; the bases come from configuration only.
 */
import { MalformedRow, type IngestionSource } from "@apiplat/catalogue";
import type { OutboundClient } from "@apiplat/outbound-guard";
import { cikId } from "../domain/ids.js";
import { InvalidRecord, secTickerRecord, submissionRecord, type SubmissionsDocument } from "../domain/records.js";
import { fortuneCiks } from "../store/companies.js";
import { upsertSourceRows, type SourceRows } from "../store/records.js";
import { refreshProfiles } from "./datasets.js";

/** SEC's published limit for automated access (https://www.sec.gov/os/accessing-edgar-data). */
export const SEC_MAX_REQUESTS_PER_SECOND = 10;

interface SecEdgarOptions {
  userAgent: string;
  wwwBase: string;
  dataBase: string;
  requestsPerSecond: number;
  /** Companies whose submissions are fetched; empty: the catalogue's Fortune 1000 companies with a CIK, by rank. */
  ciks: readonly number[];
  maxSubmissions: number;
  outbound: OutboundClient;
}

type SecRecord = { kind: "ticker"; row: unknown; position: number } | { kind: "submissions"; document: SubmissionsDocument };

/**
 * Spaces request starts at least 1/rate seconds apart, across concurrent callers, plus a 5 % margin: requests can
 * reach the server closer together than they left (the first one opens the connection), and SEC counts arrivals.
 */
class RequestPacer {
  private next = 0;
  constructor(private readonly requestsPerSecond: number) {}
  async wait(): Promise<void> {
    const interval = (1000 / this.requestsPerSecond) * 1.05;
    const now = performance.now();
    const at = Math.max(now, this.next);
    this.next = at + interval;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  }
}

export function secEdgarSource(options: SecEdgarOptions): IngestionSource<SecRecord, SourceRows> {
  const pacer = new RequestPacer(Math.min(options.requestsPerSecond, SEC_MAX_REQUESTS_PER_SECOND));
  async function getJson<T>(url: string): Promise<T> {
    await pacer.wait();
    const response = await options.outbound.fetch(url, {
      headers: { "user-agent": options.userAgent, accept: "application/json" },
      timeoutMs: 30_000,
      maxBytes: 50 * 1024 * 1024,
    });
    if (response.status !== 200) throw new Error(`SEC EDGAR answered HTTP ${response.status} for ${new URL(url).pathname}`);
    return JSON.parse(response.body.toString("utf8")) as T;
  }
  const base = (url: string) => url.replace(/(?<!\/)\/+$/, "");

  return {
    name: "sec-edgar",
    live: true,
    attribution: {
      file: `${base(options.wwwBase)}/files/company_tickers_exchange.json and ${base(options.dataBase)}/submissions/`,
      title: "SEC EDGAR live: company tickers and exchanges, submissions (company facts and recent filings)",
      upstream: "SEC EDGAR (www.sec.gov, data.sec.gov)",
      licence: "US federal government work, public domain (SEC EDGAR data)",
    },
    async *read({ db }) {
      let line = 0;
      try {
        const list = await getJson<{ fields?: string[]; data?: unknown[] }>(`${base(options.wwwBase)}/files/company_tickers_exchange.json`);
        for (const [index, row] of (list.data ?? []).entries()) yield { line: ++line, value: { kind: "ticker", row, position: index + 1 } };
      } catch (error) {
        yield { line: ++line, malformed: `company tickers: ${(error as Error).message}` };
      }
      const ciks = options.ciks.length > 0 ? options.ciks.slice(0, options.maxSubmissions) : await fortuneCiks(db, options.maxSubmissions);
      for (const cik of ciks) {
        try {
          const document = await getJson<SubmissionsDocument>(`${base(options.dataBase)}/submissions/CIK${cikId(cik)}.json`);
          yield { line: ++line, value: { kind: "submissions", document } };
        } catch (error) {
          yield { line: ++line, malformed: `submissions of CIK ${cik}: ${(error as Error).message}` };
        }
      }
    },
    toRows(record) {
      try {
        if (record.kind === "ticker") return [{ secTickers: [secTickerRecord(record.row, record.position, "sec-edgar")] }];
        const { submission, filings } = submissionRecord(record.document, "sec-edgar");
        return [{ submission, filings }];
      } catch (error) {
        if (error instanceof InvalidRecord) throw new MalformedRow(error.message);
        throw error;
      }
    },
    upsert: upsertSourceRows,
    finish: refreshProfiles,
  };
}
