import { integerSetting, listSetting, type Env } from "@apiplat/config";
import { MAX_CIK } from "./domain/ids.js";
import { SEC_MAX_REQUESTS_PER_SECOND } from "./ingest/sec-edgar.js";

export interface CompanyDataSettings {
  /** Load the datasets on the first start when the catalogue is empty (COMPANY_DATA_AUTOLOAD=off to skip). */
  autoLoad: boolean;
  /** SEC_USER_AGENT: turns the live SEC EDGAR adapter on; SEC asks for a name and a contact ("Example Co admin@example.com"). */
  secUserAgent: string | null;
  /** COMPANY_DATA_SEC_WWW_BASE (default https://www.sec.gov): where company_tickers_exchange.json is fetched. */
  secWwwBase: string;
  /** COMPANY_DATA_SEC_DATA_BASE (default https://data.sec.gov): where submissions JSON is fetched. */
  secDataBase: string;
  /** COMPANY_DATA_SEC_REQUESTS_PER_SECOND: 1 to 10 (SEC's limit), default 10. */
  secRequestsPerSecond: number;
  /** COMPANY_DATA_SEC_CIKS: CIKs whose submissions are fetched (default: the Fortune 1000 companies with a CIK). */
  secCiks: number[];
  /** COMPANY_DATA_SEC_MAX_SUBMISSIONS: submissions fetched per round (default 1000). */
  secMaxSubmissions: number;
  /** COMPANY_DATA_SEC_FETCH_HOURS: hours between two live rounds (default 24). */
  secFetchIntervalMs: number;
}

function baseUrl(env: Env, name: string, fallback: string): string {
  const value = env[name] || fallback;
  if (!/^https?:\/\/[^/\s]+/.test(value)) throw new Error(`${name} must be an http(s) URL, got "${value}"`);
  return value;
}

export function readSettings(env: Env): CompanyDataSettings {
  const ciks = listSetting(env.COMPANY_DATA_SEC_CIKS).map((raw) => {
    const cik = Number(raw);
    if (!/^\d{1,10}$/.test(raw) || cik < 1 || cik > MAX_CIK) throw new Error(`COMPANY_DATA_SEC_CIKS: "${raw}" is not a CIK (1 to 10 digits)`);
    return cik;
  });
  return {
    autoLoad: (env.COMPANY_DATA_AUTOLOAD ?? "on") !== "off",
    secUserAgent: env.SEC_USER_AGENT?.trim() || null,
    secWwwBase: baseUrl(env, "COMPANY_DATA_SEC_WWW_BASE", "https://www.sec.gov"),
    secDataBase: baseUrl(env, "COMPANY_DATA_SEC_DATA_BASE", "https://data.sec.gov"),
    secRequestsPerSecond: integerSetting(env, "COMPANY_DATA_SEC_REQUESTS_PER_SECOND", SEC_MAX_REQUESTS_PER_SECOND, 1, SEC_MAX_REQUESTS_PER_SECOND),
    secCiks: ciks,
    secMaxSubmissions: integerSetting(env, "COMPANY_DATA_SEC_MAX_SUBMISSIONS", 1000, 1, 100_000),
    secFetchIntervalMs: integerSetting(env, "COMPANY_DATA_SEC_FETCH_HOURS", 24, 1, 24 * 365) * 3_600_000,
  };
}
