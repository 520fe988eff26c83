/** The merged profiles: rebuilt from the per-source tables, searched, looked up by id, CIK and domain. */
import { SqlFilter, upsertRows, type Page } from "@apiplat/catalogue";
import type { Database, Queryable } from "@apiplat/storage";
import { mergeCompanies, type Profile } from "../domain/merge.js";
import { nameKey, tickerKey } from "../domain/names.js";
import { readSourceRecords } from "./records.js";

const COLUMNS = ["id", "cik", "name", "name_key", "legal_key", "ticker_keys", "industry", "sector", "state", "employees", "fortune_rank", "domains", "profile"] as const;

function companyRow(profile: Profile) {
  return {
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
}

/**
 * Merges every source's records into profiles and writes them: changed profiles are updated, unchanged ones left
 * alone (a re-run writes nothing), profiles no longer produced are deleted. One transaction: readers see the old
 * profiles or the new ones.
 */
export async function rebuildProfiles(db: Database): Promise<{ profiles: number }> {
  const profiles = mergeCompanies(await readSourceRecords(db));
  await db.transaction(async (tx) => {
    await tx.query("CREATE TEMP TABLE IF NOT EXISTS merged_ids (id text PRIMARY KEY) ON COMMIT DROP");
    const rows = profiles.map(companyRow);
    for (let i = 0; i < rows.length; i += 1000) {
      const batch = rows.slice(i, i + 1000);
      await tx.query("INSERT INTO merged_ids SELECT unnest($1::text[])", [batch.map((r) => r.id)]);
      await upsertRows(tx, { table: "companies", key: ["id"], columns: COLUMNS }, batch);
    }
    await tx.query("DELETE FROM companies c WHERE NOT EXISTS (SELECT 1 FROM merged_ids m WHERE m.id = c.id)");
  });
  return { profiles: profiles.length };
}

export async function profileById(db: Queryable, id: string): Promise<Profile | null> {
  const { rows } = await db.query<{ profile: Profile }>("SELECT profile FROM companies WHERE id = $1", [id]);
  return rows[0]?.profile ?? null;
}

export async function profileByCik(db: Queryable, cik: number): Promise<Profile | null> {
  const { rows } = await db.query<{ profile: Profile }>("SELECT profile FROM companies WHERE cik = $1", [cik]);
  return rows[0]?.profile ?? null;
}

/**
 * The company with this website domain, else with one of its parent domains (investor.apple.com -> apple.com):
 * the longest match, then the best Fortune rank, then the id.
 */
export async function profileByDomain(db: Queryable, candidates: string[]): Promise<Profile | null> {
  const { rows } = await db.query<{ profile: Profile }>(
    `SELECT c.profile FROM companies c, unnest($1::text[]) WITH ORDINALITY AS d(domain, position)
     WHERE c.domains @> ARRAY[d.domain]
     ORDER BY d.position, c.fortune_rank NULLS LAST, c.id LIMIT 1`,
    [candidates],
  );
  return rows[0]?.profile ?? null;
}

export interface Filing {
  form: string;
  filed_on: string;
  accession_number: string;
  description: string | null;
  url: string;
  source: string;
}

export async function recentFilings(db: Queryable, cik: number, limit: number): Promise<{ total: number; filings: Filing[] }> {
  const [count, list] = await Promise.all([
    db.query<{ n: number }>("SELECT count(*)::int AS n FROM filings WHERE cik = $1", [cik]),
    db.query<Filing>(
      `SELECT form, filed_on::text AS filed_on, accession_number, description, url, source FROM filings
       WHERE cik = $1 ORDER BY filed_on DESC, accession_number DESC LIMIT $2`,
      [cik, limit],
    ),
  ]);
  return { total: count.rows[0].n, filings: list.rows };
}

export interface SearchFilters {
  name?: string;
  ticker?: string;
  industry?: string;
  sector?: string;
  state?: string;
  minEmployees?: number;
}

export interface SearchHit {
  profile: Profile;
  match_score: number | null;
}

/**
 * Name search: the name key (legal suffixes, case and punctuation gone) against each company's name and legal
 * name keys with pg_trgm. A company matches when either key is similar to the query (`%`, similarity of at least
 * 0.3: typos in a whole name) or holds a stretch similar to it (`<%`, word similarity of at least 0.6: a partial
 * name such as "goldman"); exact keys come first, then the best similarity, then the best word similarity.
 */
export async function searchCompanies(db: Queryable, filters: SearchFilters, page: Page): Promise<{ total: number; hits: SearchHit[] }> {
  const filter = new SqlFilter();
  let score = "NULL::float8";
  let order = "c.fortune_rank NULLS LAST, c.name_key, c.id";
  if (filters.name !== undefined) {
    const key = filter.param(nameKey(filters.name));
    filter.where(`(c.name_key % ${key} OR ${key} <% c.name_key OR c.legal_key % ${key} OR ${key} <% c.legal_key)`);
    score = `greatest(similarity(c.name_key, ${key}), coalesce(similarity(c.legal_key, ${key}), 0))`;
    const wordScore = `greatest(word_similarity(${key}, c.name_key), coalesce(word_similarity(${key}, c.legal_key), 0))`;
    const exact = `(c.name_key = ${key} OR coalesce(c.legal_key = ${key}, false))`;
    order = `${exact} DESC, ${score} DESC, ${wordScore} DESC, c.fortune_rank NULLS LAST, c.id`;
  }
  if (filters.ticker !== undefined) filter.where((p) => `c.ticker_keys @> ARRAY[${p(tickerKey(filters.ticker!))}]::text[]`);
  if (filters.industry !== undefined) filter.where((p) => `lower(c.industry) = lower(${p(filters.industry)})`);
  if (filters.sector !== undefined) filter.where((p) => `lower(c.sector) = lower(${p(filters.sector)})`);
  if (filters.state !== undefined) filter.where((p) => `c.state = ${p(filters.state!.toUpperCase())}`);
  filter.atLeast("c.employees", filters.minEmployees);
  const count = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM companies c ${filter.sql}`, filter.params);
  const total = count.rows[0].n;
  if (total <= page.offset) return { total, hits: [] };
  const { rows } = await db.query<SearchHit>(
    `SELECT c.profile, round((${score})::numeric, 4)::float8 AS match_score FROM companies c ${filter.sql}
     ORDER BY ${order} LIMIT ${filter.param(page.limit)} OFFSET ${filter.param(page.offset)}`,
    filter.params,
  );
  return { total, hits: rows };
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
