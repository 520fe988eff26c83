/**
 * One profile per company from the records of every source. How records are joined:
 *
 * 1. SEC records (the ticker list, submissions JSON) are joined by CIK: each CIK is one company.
 * 2. A Fortune 1000 row joins the SEC company holding its ticker (compared without separators: BRKA = BRK-A), else
 *    the one SEC company whose name key equals its own (legal suffixes, case and punctuation ignored); else it is a
 *    company of its own.
 * 3. A People Data Labs row joins the company whose website domain equals its domain, else the one company whose
 *    name key equals its own; else it is a company of its own.
 * 4. A DBpedia abstract joins the one company whose name key equals its title's; else it is a company of its own.
 *
 * A name key shared by two companies is ambiguous and joins nothing. A company already joined by a record of the same
 * source is not joined by another one (the later record becomes a company of its own).
 *
 * Conflicts: each field is taken from the first source, in a fixed order per field, that has a value (toProfile; the
 * README's table), and `sources` says which one gave it.
 */
import { domainOfWebsite } from "./domains.js";
import { cikId } from "./ids.js";
import { nameKey, slugOf, tickerKey } from "./names.js";
import { isoCountry } from "./countries.js";

export type SourceName = "sec-tickers" | "sec-edgar" | "edgar-submissions" | "edgar-daily-index" | "fortune-1000" | "dbpedia-abstracts" | "pdl-sample";

export interface SecTickerRecord {
  cik: number;
  ticker: string;
  name: string;
  exchange: string | null;
  position: number;
  source: SourceName;
}

export interface Address {
  street: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  country: string | null;
}

export interface SubmissionRecord {
  cik: number;
  name: string;
  entity_type: string | null;
  sic: string | null;
  sic_description: string | null;
  ein: string | null;
  category: string | null;
  fiscal_year_end: string | null;
  state_of_incorporation: string | null;
  phone: string | null;
  tickers: string[];
  exchanges: string[];
  business_address: Address | null;
  former_names: { name: string; from: string | null; to: string | null }[];
  website: string | null;
  source: SourceName;
}

export interface FortuneRecord {
  rank: number;
  company: string;
  revenue_musd: string | null;
  profit_musd: string | null;
  employees: number | null;
  sector: string | null;
  city: string | null;
  state: string | null;
  ceo: string | null;
  website: string | null;
  ticker: string | null;
  market_cap_musd: string | null;
}

export interface DbpediaRecord {
  title: string;
  abstract: string;
}

export interface PdlRecord {
  pdl_id: number;
  name: string;
  domain: string | null;
  founded_year: number | null;
  industry: string | null;
  size_range: string | null;
  locality: string | null;
  country: string | null;
  linkedin_url: string | null;
  current_employee_estimate: number | null;
  total_employee_estimate: number | null;
}

export interface SourceRecords {
  secTickers: SecTickerRecord[];
  submissions: SubmissionRecord[];
  fortune: FortuneRecord[];
  dbpedia: DbpediaRecord[];
  pdl: PdlRecord[];
}

/**
 * The Fortune list the file holds, and the fiscal year its figures measure. The file is named and described as the
 * 2021 list (Kaggle "Fortune 500 data 2021", SOURCE.md), but its revenues, profits and employee counts are those of
 * Fortune's 2020 list, whose figures are for fiscal years ended on or before 2020-01-31, fiscal 2019 in Fortune's
 * naming: Microsoft 125,843 (fiscal year ended June 2019), Apple 260,174 (September 2019), Walmart 523,964 (January
 * 2020). The 2021 list has Microsoft at 143,015 and Walmart at 559,151. Corrected here; only the market caps are of
 * 2021 (taken on 2021-01-20).
 */
export const FORTUNE_LIST_YEAR = 2020;
export const FORTUNE_FISCAL_YEAR = 2019;
export const FORTUNE_MARKET_CAP_DATE = "2021-01-20";

export interface Profile {
  id: string;
  name: string;
  legal_name: string | null;
  cik: string | null;
  ticker: string | null;
  tickers: string[];
  exchange: string | null;
  industry: string | null;
  sic_code: string | null;
  sector: string | null;
  employees: { count: number; year: number | null; basis: string } | null;
  size_range: string | null;
  revenue: { usd: number; year: number } | null;
  market_cap: { usd: number; as_of: string } | null;
  founded_year: number | null;
  headquarters: Address | null;
  website: string | null;
  domain: string | null;
  domains: string[];
  social_profiles: { linkedin: { handle: string; url: string } | null };
  description: string | null;
  fortune_1000: { rank: number; year: number } | null;
  sec: {
    entity_type: string | null;
    filer_category: string | null;
    ein: string | null;
    state_of_incorporation: string | null;
    fiscal_year_end: string | null;
    phone: string | null;
    former_names: { name: string; from: string | null; to: string | null }[];
  } | null;
  /** For every field with a value, the source that gave it. */
  sources: Record<string, SourceName>;
  /** The records joined into this profile and how each was matched. */
  matched: { source: SourceName; record: string; by: "cik" | "ticker" | "name" | "domain" | "own" }[];
}

interface Draft {
  id: string | null;
  cik: number | null;
  sec: SecTickerRecord[];
  submission: SubmissionRecord | null;
  fortune: FortuneRecord | null;
  pdl: PdlRecord | null;
  dbpedia: DbpediaRecord | null;
  matched: Profile["matched"];
}

const emptyDraft = (): Draft => ({ id: null, cik: null, sec: [], submission: null, fortune: null, pdl: null, dbpedia: null, matched: [] });

/** Name keys that point at exactly one draft; a key shared by two is ambiguous and maps to null. */
class NameIndex {
  private readonly byKey = new Map<string, Draft | null>();
  add(name: string | null | undefined, draft: Draft): void {
    if (!name) return;
    const key = nameKey(name);
    if (!key) return;
    const current = this.byKey.get(key);
    if (current === undefined) this.byKey.set(key, draft);
    else if (current !== draft) this.byKey.set(key, null);
  }
  find(name: string): Draft | null {
    return this.byKey.get(nameKey(name)) ?? null;
  }
}

function secName(draft: Draft): string | null {
  return draft.submission?.name ?? draft.sec[0]?.name ?? null;
}

function parseMillions(value: string | null): number | null {
  if (value === null) return null;
  const n = Number(value);
  return Number.isFinite(n) ? Math.round(n * 1_000_000) : null;
}

/** "linkedin.com/company/ibm" -> handle "company/ibm" and its URL. */
function linkedinProfile(url: string | null): { handle: string; url: string } | null {
  const match = url?.match(/^(?:https?:\/\/)?(?:[a-z]{2,3}\.)?linkedin\.com\/(.+?)\/?$/i);
  return match ? { handle: match[1], url: `https://www.linkedin.com/${match[1]}` } : null;
}

/** "new york, new york, united states" -> city, region, country as PDL gives them (lower case). */
function pdlAddress(record: PdlRecord): Address | null {
  if (!record.locality) return null;
  const parts = record.locality.split(",").map((p) => p.trim());
  return {
    street: null,
    city: parts[0] || null,
    state: parts.length > 2 ? parts[1] : null,
    postal_code: null,
    country: isoCountry(record.country ?? parts.at(-1) ?? null),
  };
}

export function mergeCompanies(records: SourceRecords): Profile[] {
  const drafts: Draft[] = [];
  const byCik = new Map<number, Draft>();
  const cikDraft = (cik: number) => {
    let draft = byCik.get(cik);
    if (!draft) {
      draft = { ...emptyDraft(), cik };
      byCik.set(cik, draft);
      drafts.push(draft);
    }
    return draft;
  };

  for (const row of [...records.secTickers].sort((a, b) => a.cik - b.cik || a.position - b.position)) {
    const draft = cikDraft(row.cik);
    draft.sec.push(row);
    if (draft.sec.length === 1) draft.matched.push({ source: row.source, record: `CIK ${row.cik}`, by: "cik" });
  }
  for (const submission of records.submissions) {
    const draft = cikDraft(submission.cik);
    draft.submission = submission;
    draft.matched.push({ source: submission.source, record: `CIK ${submission.cik}`, by: "cik" });
  }

  const byTicker = new Map<string, Draft>();
  const secNames = new NameIndex();
  for (const draft of drafts) {
    for (const ticker of [...draft.sec.map((s) => s.ticker), ...(draft.submission?.tickers ?? [])]) {
      if (!byTicker.has(tickerKey(ticker))) byTicker.set(tickerKey(ticker), draft);
    }
    secNames.add(secName(draft), draft);
  }

  for (const row of [...records.fortune].sort((a, b) => a.rank - b.rank || a.company.localeCompare(b.company))) {
    const record = `rank ${row.rank} (${row.company})`;
    const byTickerMatch = row.ticker ? byTicker.get(tickerKey(row.ticker)) : undefined;
    const byNameMatch = secNames.find(row.company);
    let draft: Draft;
    if (byTickerMatch && !byTickerMatch.fortune) {
      draft = byTickerMatch;
      draft.matched.push({ source: "fortune-1000", record, by: "ticker" });
    } else if (byNameMatch && !byNameMatch.fortune) {
      draft = byNameMatch;
      draft.matched.push({ source: "fortune-1000", record, by: "name" });
    } else {
      draft = emptyDraft();
      drafts.push(draft);
      draft.matched.push({ source: "fortune-1000", record, by: "own" });
    }
    draft.fortune = row;
  }

  const allNames = new NameIndex();
  const byDomain = new Map<string, Draft>();
  for (const draft of drafts) {
    allNames.add(draft.fortune?.company, draft);
    allNames.add(secName(draft), draft);
    const domain = domainOfWebsite(draft.fortune?.website);
    if (domain && !byDomain.has(domain)) byDomain.set(domain, draft);
  }

  for (const row of [...records.pdl].sort((a, b) => a.pdl_id - b.pdl_id)) {
    const record = `id ${row.pdl_id} (${row.name})`;
    const domainMatch = row.domain ? byDomain.get(domainOfWebsite(row.domain) ?? "") : undefined;
    const nameMatch = allNames.find(row.name);
    let draft: Draft;
    if (domainMatch && !domainMatch.pdl) {
      draft = domainMatch;
      draft.matched.push({ source: "pdl-sample", record, by: "domain" });
    } else if (nameMatch && !nameMatch.pdl) {
      draft = nameMatch;
      draft.matched.push({ source: "pdl-sample", record, by: "name" });
    } else {
      draft = emptyDraft();
      drafts.push(draft);
      draft.matched.push({ source: "pdl-sample", record, by: "own" });
    }
    draft.pdl = row;
    allNames.add(row.name, draft);
  }

  for (const row of [...records.dbpedia].sort((a, b) => a.title.localeCompare(b.title))) {
    const nameMatch = allNames.find(row.title);
    let draft: Draft;
    if (nameMatch && !nameMatch.dbpedia) {
      draft = nameMatch;
      draft.matched.push({ source: "dbpedia-abstracts", record: row.title, by: "name" });
    } else {
      draft = emptyDraft();
      drafts.push(draft);
      draft.matched.push({ source: "dbpedia-abstracts", record: row.title, by: "own" });
    }
    draft.dbpedia = row;
  }

  assignIds(drafts);
  return drafts.map(toProfile).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** CIK companies by their ten-digit CIK; the others by the slug of their name, "-2", "-3"... on a collision, in a fixed order. */
function assignIds(drafts: Draft[]): void {
  const taken = new Set<string>();
  for (const draft of drafts) {
    if (draft.cik !== null) {
      draft.id = cikId(draft.cik);
      taken.add(draft.id);
    }
  }
  const slugged = drafts
    .filter((d) => d.cik === null)
    .map((draft) => ({ draft, slug: slugOf(displayName(draft).value), order: `${draft.matched[0].source}|${draft.matched[0].record}` }))
    .sort((a, b) => a.slug.localeCompare(b.slug) || a.order.localeCompare(b.order));
  for (const { draft, slug } of slugged) {
    let id = slug;
    for (let n = 2; taken.has(id); n++) id = `${slug}-${n}`;
    taken.add(id);
    draft.id = id;
  }
}

function displayName(draft: Draft): { value: string; source: SourceName } {
  if (draft.fortune) return { value: draft.fortune.company, source: "fortune-1000" };
  if (draft.dbpedia) return { value: draft.dbpedia.title, source: "dbpedia-abstracts" };
  if (draft.submission) return { value: draft.submission.name, source: draft.submission.source };
  if (draft.sec[0]) return { value: draft.sec[0].name, source: draft.sec[0].source };
  return { value: draft.pdl!.name, source: "pdl-sample" };
}

function toProfile(draft: Draft): Profile {
  const sources: Record<string, SourceName> = {};
  const from = <T>(field: string, value: T | null | undefined, source: SourceName): T | null => {
    if (value === null || value === undefined) return null;
    sources[field] = source;
    return value;
  };
  const { fortune, submission, pdl, dbpedia } = draft;
  const sec = draft.sec;
  const name = displayName(draft);
  sources.name = name.source;

  const legalName = submission ? from("legal_name", submission.name, submission.source) : sec[0] ? from("legal_name", sec[0].name, sec[0].source) : null;
  const cik = draft.cik === null ? null : from("cik", cikId(draft.cik), sec[0]?.source ?? submission!.source);

  let tickers: string[] = [];
  let ticker: string | null = null;
  let exchange: string | null = null;
  if (sec.length > 0) {
    tickers = [...new Set(sec.map((s) => s.ticker))];
    ticker = from("ticker", sec[0].ticker, sec[0].source);
    sources.tickers = sec[0].source;
    exchange = from("exchange", sec[0].exchange, sec[0].source);
  } else if (submission && submission.tickers.length > 0) {
    tickers = submission.tickers;
    ticker = from("ticker", submission.tickers[0], submission.source);
    sources.tickers = submission.source;
    exchange = from("exchange", submission.exchanges[0] ?? null, submission.source);
  } else if (fortune?.ticker) {
    tickers = [fortune.ticker];
    ticker = from("ticker", fortune.ticker, "fortune-1000");
    sources.tickers = "fortune-1000";
  }

  const industry =
    from("industry", submission?.sic_description ?? null, submission?.source ?? "edgar-submissions") ?? from("industry", pdl?.industry ?? null, "pdl-sample");
  const sicCode = from("sic_code", submission?.sic ?? null, submission?.source ?? "edgar-submissions");
  const sector = from("sector", fortune?.sector ?? null, "fortune-1000");

  const employees =
    fortune?.employees !== null && fortune?.employees !== undefined
      ? from("employees", { count: fortune.employees, year: FORTUNE_FISCAL_YEAR, basis: "reported in the Fortune 1000 list" }, "fortune-1000")
      : pdl?.current_employee_estimate !== null && pdl?.current_employee_estimate !== undefined
        ? from("employees", { count: pdl.current_employee_estimate, year: null, basis: "People Data Labs current employee estimate" }, "pdl-sample")
        : null;
  const revenueUsd = parseMillions(fortune?.revenue_musd ?? null);
  const revenue = revenueUsd === null ? null : from("revenue", { usd: revenueUsd, year: FORTUNE_FISCAL_YEAR }, "fortune-1000");
  const marketCapUsd = parseMillions(fortune?.market_cap_musd ?? null);
  const marketCap = marketCapUsd === null ? null : from("market_cap", { usd: marketCapUsd, as_of: FORTUNE_MARKET_CAP_DATE }, "fortune-1000");

  const headquarters =
    (submission?.business_address ? from("headquarters", submission.business_address, submission.source) : null) ??
    (fortune && (fortune.city || fortune.state)
      ? from("headquarters", { street: null, city: fortune.city, state: fortune.state, postal_code: null, country: "US" }, "fortune-1000")
      : null) ??
    (pdl ? from("headquarters", pdlAddress(pdl), "pdl-sample") : null);

  const fortuneDomain = domainOfWebsite(fortune?.website);
  const pdlDomain = domainOfWebsite(pdl?.domain);
  const website = fortune?.website
    ? from("website", fortune.website, "fortune-1000")
    : pdlDomain
      ? from("website", `https://${pdlDomain}`, "pdl-sample")
      : null;
  const domain = fortuneDomain ? from("domain", fortuneDomain, "fortune-1000") : from("domain", pdlDomain, "pdl-sample");
  const domains = [...new Set([fortuneDomain, pdlDomain].filter((d): d is string => d !== null))];
  if (domains.length > 0) sources.domains = fortuneDomain ? "fortune-1000" : "pdl-sample";

  const linkedin = pdl ? linkedinProfile(pdl.linkedin_url) : null;
  if (linkedin) sources.social_profiles = "pdl-sample";

  return {
    id: draft.id!,
    name: name.value,
    legal_name: legalName,
    cik,
    ticker,
    tickers,
    exchange,
    industry,
    sic_code: sicCode,
    sector,
    employees,
    size_range: from("size_range", pdl?.size_range ?? null, "pdl-sample"),
    revenue,
    market_cap: marketCap,
    founded_year: from("founded_year", pdl?.founded_year ?? null, "pdl-sample"),
    headquarters,
    website,
    domain,
    domains,
    social_profiles: { linkedin },
    description: from("description", dbpedia?.abstract ?? null, "dbpedia-abstracts"),
    fortune_1000: fortune ? from("fortune_1000", { rank: fortune.rank, year: FORTUNE_LIST_YEAR }, "fortune-1000") : null,
    sec: submission
      ? from(
          "sec",
          {
            entity_type: submission.entity_type,
            filer_category: submission.category,
            ein: submission.ein,
            state_of_incorporation: submission.state_of_incorporation,
            fiscal_year_end: submission.fiscal_year_end,
            phone: submission.phone,
            former_names: submission.former_names,
          },
          submission.source,
        )
      : null,
    sources,
    matched: draft.matched,
  };
}
