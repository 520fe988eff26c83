/** The merged profiles: rebuilt from the per-source tables, searched, looked up by id, CIK and domain. */
import { createHash } from "node:crypto";
import type { Database, Queryable } from "@apiplat/storage";
import type { CompanyFilters } from "../domain/company-index.js";
import { mergeCompanies } from "../domain/merge.js";
import type { Profile } from "../domain/profile.js";
import { nameKey, tickerKey } from "../domain/names.js";
import { readSourceRecords } from "./records.js";

const COLUMNS = [
  "id",
  "cik",
  "name",
  "name_key",
  "legal_key",
  "ticker_keys",
  "industry",
  "sector",
  "state",
  "employees",
  "fortune_rank",
  "domains",
  "profile",
  "digest",
] as const;

const COLUMN_TYPES = `id text, cik bigint, name text, name_key text, legal_key text, ticker_keys text[], industry text, sector text,
  state text, employees integer, fortune_rank integer, domains text[], profile jsonb, digest text`;

function companyRow(profile: Profile) {
  const row = {
    id: profile.id,
    cik: profile.cik === null ? null : Number(profile.cik),
    name: profile.name,
    name_key: nameKey(profile.name),
    legal_key: profile.legal_name === null ? null : nameKey(profile.legal_name),
    ticker_keys: profile.tickers.map(tickerKey),
    industry: profile.industry,
    sector: profile.sector,
    state: profile.headquarters?.state && /^[A-Z]{2}$/.test(profile.headquarters.state) ? profile.headquarters.state : null,
    employees: profile.employees?.count ?? null,
    fortune_rank: profile.fortune_1000?.rank ?? null,
    domains: profile.domains,
    profile: JSON.stringify(profile),
  };
  return { ...row, digest: createHash("sha256").update(JSON.stringify(row)).digest("base64url") };
}

/**
 * Upserts profiles passed as one JSON parameter: thousands of rows in one statement without thousands of bind
 * parameters to parse (five times faster than a VALUES list here). Only changed rows are passed.
 */
async function writeCompanies(db: Queryable, rows: ReturnType<typeof companyRow>[]): Promise<void> {
  const json = JSON.stringify(rows.map((row) => ({ ...row, profile: JSON.parse(row.profile) as unknown })));
  await db.query(
    `INSERT INTO companies (${COLUMNS.join(", ")})
     SELECT ${COLUMNS.join(", ")} FROM jsonb_to_recordset($1::jsonb) AS r(${COLUMN_TYPES})
     ON CONFLICT (id) DO UPDATE SET ${COLUMNS.filter((c) => c !== "id")
       .map((c) => `${c} = EXCLUDED.${c}`)
       .join(", ")}`,
    [json],
  );
}

/**
 * Merges every source's records into profiles and writes the difference: new and changed profiles (by digest) are
 * upserted, profiles no longer produced are deleted, the rest is left alone (a re-run writes nothing). One
 * transaction: readers see the old profiles or the new ones.
 */
export async function rebuildProfiles(db: Database): Promise<{ written: number; deleted: number }> {
  const rows = mergeCompanies(await readSourceRecords(db)).map(companyRow);
  const { rows: stored } = await db.query<{ id: string; digest: string }>("SELECT id, digest FROM companies");
  const storedDigests = new Map(stored.map((r) => [r.id, r.digest]));
  const changed = rows.filter((row) => storedDigests.get(row.id) !== row.digest);
  const merged = new Set(rows.map((row) => row.id));
  const gone = stored.filter((r) => !merged.has(r.id)).map((r) => r.id);
  await db.transaction(async (tx) => {
    if (gone.length > 0) await tx.query("DELETE FROM companies WHERE id = ANY($1::text[])", [gone]);
    for (let i = 0; i < changed.length; i += 2000) await writeCompanies(tx, changed.slice(i, i + 2000));
  });
  return { written: changed.length, deleted: gone.length };
}

export interface Filing {
  form: string;
  filed_on: string;
  accession_number: string;
  description: string | null;
  url: string;
  source: string;
}

type ProfileWithFilings = Profile & { filings: { total: number; recent: Filing[] } };

/**
 * A profile with its newest filings, in one query: round trips to the database are most of what a request costs.
 */
async function profileWithFilings(db: Queryable, where: string, params: unknown[], filingsLimit: number): Promise<ProfileWithFilings | null> {
  const limit = `$${params.length + 1}`;
  const { rows } = await db.query<{ profile: Profile; total: number; recent: Filing[] }>(
    `SELECT c.profile,
       (SELECT count(*)::int FROM filings f WHERE f.cik = c.cik) AS total,
       coalesce((SELECT json_agg(r ORDER BY r.filed_on DESC, r.accession_number DESC) FROM (
         SELECT f.form, f.filed_on::text AS filed_on, f.accession_number, f.description, f.url, f.source FROM filings f
         WHERE f.cik = c.cik ORDER BY f.filed_on DESC, f.accession_number DESC LIMIT ${limit}) r), '[]') AS recent
     FROM companies c WHERE ${where}`,
    [...params, filingsLimit],
  );
  const row = rows[0];
  return row ? { ...row.profile, filings: { total: row.total, recent: row.recent } } : null;
}

export function profileById(db: Queryable, id: string, filingsLimit: number): Promise<ProfileWithFilings | null> {
  return profileWithFilings(db, "c.id = $1", [id], filingsLimit);
}

export function profileByCik(db: Queryable, cik: number, filingsLimit: number): Promise<ProfileWithFilings | null> {
  return profileWithFilings(db, "c.cik = $1", [cik], filingsLimit);
}

/**
 * The company with this website domain, else with one of its parent domains (investor.apple.com -> apple.com):
 * the longest match, then the best Fortune rank, then the id.
 */
export function profileByDomain(db: Queryable, candidates: string[], filingsLimit: number): Promise<ProfileWithFilings | null> {
  return profileWithFilings(
    db,
    `c.id = (SELECT c2.id FROM companies c2, unnest($1::text[]) WITH ORDINALITY AS d(domain, position)
       WHERE c2.domains @> ARRAY[d.domain] ORDER BY d.position, c2.fortune_rank NULLS LAST, c2.id LIMIT 1)`,
    [candidates],
    filingsLimit,
  );
}

export type SearchFilters = CompanyFilters;

/** What a search result shows: read from the profile's JSON in SQL, so the whole profile is not parsed per hit. */
export interface SearchHit {
  id: string;
  name: string;
  legal_name: string | null;
  cik: string | null;
  ticker: string | null;
  exchange: string | null;
  industry: string | null;
  sector: string | null;
  employees: number | null;
  headquarters: Profile["headquarters"];
  domain: string | null;
  fortune_rank: number | null;
  match_score: number | null;
}

export const HIT_COLUMNS = `c.id, c.name, c.profile->>'legal_name' AS legal_name, c.profile->>'cik' AS cik, c.profile->>'ticker' AS ticker,
  c.profile->>'exchange' AS exchange, c.industry, c.sector, c.employees, c.profile->'headquarters' AS headquarters,
  c.profile->>'domain' AS domain, c.fortune_rank`;

/** The companies of the Fortune list with a CIK, best ranked first: whose SEC submissions a live ingestion reads. */
export async function fortuneCiks(db: Queryable, limit: number): Promise<number[]> {
  const { rows } = await db.query<{ cik: number }>(
    "SELECT cik FROM companies WHERE cik IS NOT NULL AND fortune_rank IS NOT NULL ORDER BY fortune_rank LIMIT $1",
    [limit],
  );
  return rows.map((r) => r.cik);
}

/** The values a column holds (industry or sector) closest to a value no company has, for the 400's suggestions. */
export async function closestValues(db: Queryable, column: "industry" | "sector", value: string): Promise<{ known: boolean; suggestions: string[] }> {
  const { rows } = await db.query<{ value: string; exact: boolean }>(
    `SELECT DISTINCT ${column} AS value, lower(${column}) = lower($1) AS exact, similarity(lower(${column}), lower($1)) AS score
     FROM companies WHERE ${column} IS NOT NULL ORDER BY exact DESC, score DESC, value LIMIT 3`,
    [value],
  );
  return { known: rows[0]?.exact ?? false, suggestions: rows.map((r) => r.value) };
}
