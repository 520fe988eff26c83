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
 * Each company's profile is then made from the records joined into it (profile.ts).
 */
import { domainOfWebsite } from "./domains.js";
import { cikId } from "./ids.js";
import { nameKey, slugOf, tickerKey } from "./names.js";
import { displayName, toProfile, type JoinedRecords, type Profile } from "./profile.js";
import type { DbpediaRecord, FortuneRecord, PdlRecord, SourceName, SourceRecords } from "./source-records.js";

type Draft = JoinedRecords;

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

/**
 * The draft a record joins: the first candidate not yet joined by a record of the same source (`taken`), else a new
 * draft of its own.
 */
function joinOrOwn(
  drafts: Draft[],
  candidates: readonly (readonly [Draft | null | undefined, "ticker" | "name" | "domain"])[],
  taken: (draft: Draft) => boolean,
  source: SourceName,
  record: string,
): Draft {
  for (const [candidate, by] of candidates) {
    if (candidate && !taken(candidate)) {
      candidate.matched.push({ source, record, by });
      return candidate;
    }
  }
  const draft = emptyDraft();
  drafts.push(draft);
  draft.matched.push({ source, record, by: "own" });
  return draft;
}

/** One draft per CIK, from SEC's ticker list and submissions. */
function secDrafts(records: SourceRecords): Draft[] {
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
  return drafts;
}

function joinFortune(drafts: Draft[], rows: readonly FortuneRecord[]): void {
  const byTicker = new Map<string, Draft>();
  const secNames = new NameIndex();
  for (const draft of drafts) {
    for (const ticker of [...draft.sec.map((s) => s.ticker), ...(draft.submission?.tickers ?? [])]) {
      if (!byTicker.has(tickerKey(ticker))) byTicker.set(tickerKey(ticker), draft);
    }
    secNames.add(secName(draft), draft);
  }
  for (const row of [...rows].sort((a, b) => a.rank - b.rank || a.company.localeCompare(b.company))) {
    const byTickerMatch = row.ticker ? byTicker.get(tickerKey(row.ticker)) : undefined;
    const candidates = [
      [byTickerMatch, "ticker"],
      [secNames.find(row.company), "name"],
    ] as const;
    joinOrOwn(drafts, candidates, (d) => d.fortune !== null, "fortune-1000", `rank ${row.rank} (${row.company})`).fortune = row;
  }
}

/** People Data Labs rows by domain, else name; returns every name known afterwards, for DBpedia's titles. */
function joinPdl(drafts: Draft[], rows: readonly PdlRecord[]): NameIndex {
  const allNames = new NameIndex();
  const byDomain = new Map<string, Draft>();
  for (const draft of drafts) {
    allNames.add(draft.fortune?.company, draft);
    allNames.add(secName(draft), draft);
    const domain = domainOfWebsite(draft.fortune?.website);
    if (domain && !byDomain.has(domain)) byDomain.set(domain, draft);
  }
  for (const row of [...rows].sort((a, b) => a.pdl_id - b.pdl_id)) {
    const domainMatch = row.domain ? byDomain.get(domainOfWebsite(row.domain) ?? "") : undefined;
    const candidates = [
      [domainMatch, "domain"],
      [allNames.find(row.name), "name"],
    ] as const;
    const draft = joinOrOwn(drafts, candidates, (d) => d.pdl !== null, "pdl-sample", `id ${row.pdl_id} (${row.name})`);
    draft.pdl = row;
    allNames.add(row.name, draft);
  }
  return allNames;
}

function joinDbpedia(drafts: Draft[], rows: readonly DbpediaRecord[], names: NameIndex): void {
  for (const row of [...rows].sort((a, b) => a.title.localeCompare(b.title))) {
    joinOrOwn(drafts, [[names.find(row.title), "name"]], (d) => d.dbpedia !== null, "dbpedia-abstracts", row.title).dbpedia = row;
  }
}

export function mergeCompanies(records: SourceRecords): Profile[] {
  const drafts = secDrafts(records);
  joinFortune(drafts, records.fortune);
  const names = joinPdl(drafts, records.pdl);
  joinDbpedia(drafts, records.dbpedia, names);
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
