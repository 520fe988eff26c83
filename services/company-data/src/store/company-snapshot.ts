/**
 * The companies held in the service's memory for GET /search: every profile's search columns and the result it
 * shows, in a CompanyIndex (9,938 companies), so that a search costs no query of its own (a pg_trgm search cost
 * 1-5 ms of database time, queued behind the others).
 *
 * Freshness: every search first reads the catalogue's version (`companies_version`, which every statement changing
 * `companies` raises in its own transaction; see migrations/002), one primary-key read. When it changed, the new
 * companies are read and indexed aside while searches wait for them, then swapped in; a search holding the previous
 * index finishes on it, unchanged. So a search that begins after an ingestion has committed sees its companies,
 * whichever process ingested. Concurrent searches share version reads: one runs at a time, and the searches that
 * arrive while it runs share the next one (which begins after they did, so it is as fresh as a read of their own).
 */
import type { Page } from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import { CompanyIndex, type SearchableCompany } from "../domain/company-index.js";
import { HIT_COLUMNS, type SearchFilters, type SearchHit } from "./companies.js";

type ShownFields = Omit<SearchHit, "match_score">;
/** `unscored`: the hit as a search without a name shows it, made once (hits are never modified). */
type IndexedCompany = SearchableCompany & { shown: ShownFields; unscored: SearchHit };

export interface CompanySearch {
  search(filters: SearchFilters, page: Page): { total: number; hits: SearchHit[] };
}

export type CompanySearchReader = () => Promise<CompanySearch>;

export function companySearchReader(db: Queryable): CompanySearchReader {
  const readVersion = sharedFreshReads(() => catalogueVersion(db));
  let current: { version: string; search: Promise<CompanySearch> } | null = null;
  return async () => {
    const version = await readVersion();
    if (current?.version === version) return current.search;
    const loading = { version, search: loadCompanySearch(db) };
    current = loading;
    loading.search.catch(() => {
      if (current === loading) current = null; // read again by the next search
    });
    return loading.search;
  };
}

/**
 * `read`, called so that every caller gets a result read after it called: at most one read runs; callers arriving
 * during it share the next one, started when it ends.
 */
export function sharedFreshReads<T>(read: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  let next: Promise<T> | null = null;
  const start = (): Promise<T> => {
    const reading = read().finally(() => {
      if (running === reading) running = null;
    });
    running = reading;
    return reading;
  };
  return () => {
    if (running === null) return start();
    next ??= running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        next = null;
        return start();
      });
    return next;
  };
}

async function catalogueVersion(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ version: string }>("SELECT version::text AS version FROM companies_version");
  return rows[0]?.version ?? "";
}

async function loadCompanySearch(db: Queryable): Promise<CompanySearch> {
  const { rows } = await db.query<ShownFields & Omit<SearchableCompany, keyof ShownFields>>(
    `SELECT ${HIT_COLUMNS}, c.name_key, c.legal_key, c.ticker_keys, c.state FROM companies c`,
  );
  const index = new CompanyIndex<IndexedCompany>(
    rows.map(({ name_key, legal_key, ticker_keys, state, ...shown }) => ({
      id: shown.id,
      name_key,
      legal_key,
      ticker_keys,
      industry: shown.industry,
      sector: shown.sector,
      state,
      employees: shown.employees,
      fortune_rank: shown.fortune_rank,
      shown,
      unscored: { ...shown, match_score: null },
    })),
  );
  return {
    search(filters, page) {
      const { total, matches } = index.search(filters, page);
      return { total, hits: matches.map(({ company, match_score }) => (match_score === null ? company.unscored : { ...company.shown, match_score })) };
    },
  };
}
