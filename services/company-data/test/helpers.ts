/**
 * The company-data service on the real dataset files, and the same files read straight from disk so that tests
 * compute their expected values independently of the service.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { DatasetView, runIngestions } from "@apiplat/catalogue";
import { loadConfig } from "@apiplat/config";
import { routeGetter, startService, type StartedService } from "@apiplat/testing";
import { serviceUnderTest } from "@apiplat/testing/service-under-test";
import { parse } from "csv-parse/sync";
import type { Static } from "typebox";
import { datasetSources } from "../src/ingest/datasets.js";
import * as S from "../src/schemas.js";
import service from "../src/service.js";

export const datasetsDir = loadConfig(process.env).datasetsDir;
const folder = path.join(datasetsDir, "company-data");

export async function startCompanyData(options: { load?: boolean } = {}): Promise<StartedService> {
  const started = await startService(service, {
    settings: { autoLoad: false, secUserAgent: null },
    env: { DATASETS_DIR: datasetsDir },
  });
  if (options.load !== false) {
    const runs = await runIngestions(started.platform.deps.db, datasetSources(), { datasetsDir, now: () => new Date() });
    for (const run of runs) if (run.status !== "succeeded") throw new Error(`${run.source}: ${run.error}`);
  }
  return started;
}

function csv(file: string): Record<string, string>[] {
  return parse(readFileSync(path.join(folder, file)), { columns: true, relax_quotes: true }) as Record<string, string>[];
}

export type SecRow = [number, string, string, string];
export const secRows = (): SecRow[] => (JSON.parse(readFileSync(path.join(folder, "sec_company_tickers_exchange.json"), "utf8")) as { data: SecRow[] }).data;
export const fortuneRows = () => csv("fortune_1000_2021.csv");
export const pdlRows = () => csv("pdl_companies_sample.csv");
export const dbpediaRows = () => csv("dbpedia_company_abstracts.csv");
export const indexRows = () => csv("edgar_daily_index_2020-01-03.csv");
export const submissions = () => JSON.parse(readFileSync(path.join(folder, "edgar_submissions_CIK0000717423.json"), "utf8"));

export const tenDigits = (cik: number | string) => String(cik).padStart(10, "0");

/** The first SEC row of a ticker (as the file lists it). */
export function secRowOf(ticker: string): SecRow {
  const row = secRows().find((r) => r[2] === ticker);
  if (!row) throw new Error(`no SEC row for ${ticker}`);
  return row;
}

/** The CIK of the SEC company holding a ticker, compared without separators (BRKA = BRK-A), as the README states. */
export function cikOfTicker(ticker: string): number | undefined {
  const key = (t: string) => t.toUpperCase().replace(/[^A-Z0-9]/g, "");
  return secRows().find((r) => key(r[2]) === key(ticker))?.[0];
}

/** Each route's data, by the path its URL begins with. */
export interface Routes {
  "/company/": Static<typeof S.CompanyDetails>;
  "/domain/": Static<typeof S.CompanyDetails>;
  "/search": Static<typeof S.SearchPage>;
  "/sources": { datasets: Static<typeof DatasetView>[] };
}

/** GETs typed by their URL's route. */
export const getter = (started: StartedService, headers: Record<string, string>) => routeGetter<Routes>(started, headers);

/** Company-data for a file's tests (started before them, closed after), and `get` asking it as a PRO subscriber. */
export function companyDataUnderTest() {
  const svc = serviceUnderTest(() => startCompanyData());
  const get = <Url extends string>(url: Url, headers?: Record<string, string>) => getter(svc.started, svc.caller.headers)(url, headers);
  return { svc, get };
}
