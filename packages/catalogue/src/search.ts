/**
 * Full-text search over a catalogue: a weighted `tsvector` column (built by the service's migration with
 * `setweight(to_tsvector(<config>, ...), 'A') || ...`), queried with `websearch_to_tsquery` (phrases in quotes,
 * `-exclusion`, `OR`, as people type them) and ranked with `ts_rank_cd` normalized by document length. Typo
 * tolerance comes from pg_trgm: a word of the query that no document contains is replaced by the closest word of
 * the catalogue's vocabulary (trigram similarity), and the corrected query is reported. A word ending in `*` is a
 * prefix (pg_trgm, a contrib extension of PostgreSQL).
 */
import type { Database, Queryable } from "@apiplat/storage";
import { checkTextQuery } from "./query-bounds.js";
import type { SqlFilter } from "./sql.js";

/** PostgreSQL text-search configurations by ISO 639-1 language code. */
const TEXT_SEARCH_CONFIGS: Record<string, string> = {
  ar: "arabic",
  da: "danish",
  de: "german",
  en: "english",
  es: "spanish",
  fi: "finnish",
  fr: "french",
  hu: "hungarian",
  it: "italian",
  nl: "dutch",
  no: "norwegian",
  pt: "portuguese",
  ro: "romanian",
  ru: "russian",
  sv: "swedish",
  tr: "turkish",
};

/** The text-search configuration for a language code; `simple` (no stemming) for a language PostgreSQL does not stem. */
export function textSearchConfig(language: string | undefined | null): string {
  return (language && TEXT_SEARCH_CONFIGS[language.toLowerCase()]) || "simple";
}

/**
 * ts_rank_cd normalization: 1 divides the rank by 1 + log(document length), so a long body does not outrank a
 * short title that says the same thing (BM25's length normalization, roughly); 32 maps it into [0, 1).
 */
export const RANK_NORMALIZATION = 1 | 32;

export interface TextQuery {
  /** The query as searched (after typo correction). */
  text: string;
  /** Set when a word was corrected: the query as searched. */
  corrected: string | null;
  /**
   * Prefix terms (`cof*`) searched as lexeme prefixes, each as typed without its `*`; an excluded one (`-cof*`) keeps
   * its `-` (a prefix is letters and digits only, so the `-` cannot be part of it).
   */
  prefixes: string[];
}

const WORD = /[\p{L}\p{N}]+/gu;
/** A prefix term: letters and digits before a `*`, with the minus signs that start its word (an odd number excludes it). */
const PREFIX = /(?<![\p{L}\p{N}])(-*)([\p{L}\p{N}]+)\*/gu;
/** Minus signs that start a word, and the character after them. */
const NEGATION = /(?<![\p{L}\p{N}])-+(?=(.?))/gsu;
const OPERAND_START = /[\p{L}\p{N}"]/u;
const MIN_CORRECTED_LENGTH = 4;

/**
 * Prepares a query: prefixes split off, then each word the vocabulary does not know replaced by its closest known
 * word (trigram similarity above pg_trgm's threshold, the most frequent on a tie). Needs the `search_vocabulary`
 * table (see `refreshVocabulary`).
 */
export async function prepareTextQuery(db: Queryable, q: string): Promise<TextQuery> {
  const { prefixes, rest, words } = splitTextQuery(q);
  if (words.length === 0) return { text: rest, corrected: null, prefixes };
  const { rows } = await db.query<{ word: string; suggestion: string | null }>(
    `SELECT w.word,
       (SELECT v.term FROM search_vocabulary v WHERE v.term % w.word
         ORDER BY similarity(v.term, w.word) DESC, v.documents DESC, v.term LIMIT 1) AS suggestion
     FROM unnest($1::text[]) AS w(word)
     WHERE NOT EXISTS (SELECT 1 FROM search_vocabulary v WHERE v.term = w.word)`,
    [words],
  );
  return correctedQuery({ prefixes, rest }, rows);
}

/** The query with each misspelt word replaced by its suggestion (where there is one). */
export function correctedQuery(
  { prefixes, rest }: { prefixes: string[]; rest: string },
  corrections: readonly { word: string; suggestion: string | null }[],
): TextQuery {
  let text = rest;
  for (const { word, suggestion } of corrections) {
    if (!suggestion) continue;
    text = text.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(word)}(?![\\p{L}\\p{N}])`, "giu"), suggestion);
  }
  return { text, corrected: text === rest ? null : [text, ...prefixes.map((p) => `${p}*`)].join(" ").trim(), prefixes };
}

/**
 * A query's parts: its prefix terms, the rest as searched, and the words of the rest typo correction looks up
 * (at least MIN_CORRECTED_LENGTH letters, lower case, once each). Refuses (400) a query past the bounds of
 * checkTextQuery.
 */
export function splitTextQuery(q: string): { prefixes: string[]; rest: string; words: string[] } {
  checkTextQuery(q);
  const prefixes = [...q.matchAll(PREFIX)].map((m) => (m[1].length % 2 === 1 ? "-" : "") + m[2].toLowerCase());
  const rest = normalizeNegations(q.replace(PREFIX, " ")).replace(/\s+/g, " ").trim();
  const words = [...new Set([...rest.matchAll(WORD)].map((m) => m[0].toLowerCase()))].filter((w) => w.length >= MIN_CORRECTED_LENGTH && w !== "or");
  return { prefixes, rest, words };
}

/**
 * Each run of minus signs starting a word made one (an odd number: the word is excluded) or none (an even number, as
 * PostgreSQL reads `--word`), and a minus sign before no word dropped. websearch_to_tsquery stacks one NOT for every
 * minus sign until a word comes, and fails the whole query past 32 ("tsquery stack too small").
 */
function normalizeNegations(text: string): string {
  return text.replace(NEGATION, (signs: string, next: string) => (OPERAND_START.test(next) ? (signs.length % 2 === 1 ? "-" : "") : " "));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The tsquery expression of a prepared query, its values added to the filter's parameters. Each prefix is a
 * to_tsquery of its own (negated when excluded), joined with `&&`: the parser never sees an operator chain.
 */
export function tsquerySql(filter: SqlFilter, query: TextQuery, config: string): string {
  const parts: string[] = [];
  const cfg = `${filter.param(config)}::regconfig`;
  if (query.text.trim()) parts.push(`websearch_to_tsquery(${cfg}, ${filter.param(query.text)})`);
  for (const prefix of query.prefixes) {
    const excluded = prefix.startsWith("-");
    parts.push(`${excluded ? "!!" : ""}to_tsquery(${cfg}, ${filter.param(`${excluded ? prefix.slice(1) : prefix}:*`)})`);
  }
  return parts.length ? `(${parts.join(" && ")})` : `''::tsquery`;
}

/**
 * Rebuilds the vocabulary typo correction draws on: every word of the catalogue's text (unstemmed, `simple`
 * configuration) with the number of documents holding it. `textSql` selects one text column, e.g.
 * `SELECT title || ' ' || coalesce(description, '') FROM articles`.
 */
export async function refreshVocabulary(db: Database, textSql: string): Promise<void> {
  await db.transaction(async (tx) => {
    // Two sources' runs may finish at once (each holds only its own lock): the second waits for the first's words
    // instead of failing on them. Searches read on (SHARE ROW EXCLUSIVE leaves SELECT alone).
    await tx.query("LOCK TABLE search_vocabulary IN SHARE ROW EXCLUSIVE MODE");
    await tx.query("DELETE FROM search_vocabulary");
    await tx.query(
      `INSERT INTO search_vocabulary (term, documents)
       SELECT word, ndoc FROM ts_stat($1) WHERE length(word) >= ${MIN_CORRECTED_LENGTH} AND word ~ '^[[:alpha:]]+$'`,
      [`SELECT to_tsvector('simple', t) FROM (${textSql}) AS source(t)`],
    );
  });
}
