/**
 * The bounds of a catalogue's text query (`q`): what one search may ask of a service, so that no subscriber can make
 * a search cost more than a few tens of milliseconds of CPU. Two kinds:
 *
 * - On the text as typed (checkTextQuery, called by splitTextQuery, which every search path uses): its length, its
 *   words, its prefixes (`cof*`) and how long each must be. Refused before anything runs.
 * - On the compiled query against the index (TextIndex): how many terms the database's parser made of it, how many
 *   words of the catalogue a prefix stands for, and the work matching and ranking would take (postings, ranked
 *   documents and positions visited), estimated from the index before any of it is done. A query past one is refused
 *   as too broad: the answer depends on the query and the catalogue only, never on the load, so a retry would get the
 *   same answer and a 400 says so (a 503 would invite the retry, and a search refused by its breadth is not the
 *   platform failing).
 *
 * Every refusal is a 400 naming `q` and the bound in words a person can act on.
 */
import { errors } from "@apiplat/service-kit";

export interface QueryBounds {
  /** Characters of `q` (a service's schema may allow fewer). */
  maxCharacters: number;
  /** Words of `q` (runs of letters and digits, stop words and prefixes included; `OR` is an operator, not a word). */
  maxWords: number;
  /** Prefix terms (`cof*`). */
  maxPrefixes: number;
  /** Letters or digits a prefix needs before its `*`. */
  minPrefixLength: number;
}

export interface IndexBounds {
  /** Terms of the compiled query (a hyphenated word is three: `well-known` is `well-known`, `well` and `known`). */
  maxOperands: number;
  /** Words of the catalogue one prefix may stand for. */
  maxPrefixExpansions: number;
  /** Postings, ranked documents times the query's words, and positions a search may visit (see TextIndex). */
  maxWork: number;
}

export const QUERY_BOUNDS: QueryBounds = { maxCharacters: 500, maxWords: 32, maxPrefixes: 5, minPrefixLength: 2 };

export const INDEX_BOUNDS: IndexBounds = { maxOperands: 32, maxPrefixExpansions: 2000, maxWork: 4_000_000 };

const WORD = /[\p{L}\p{N}]+/gu;
const PREFIX = /[\p{L}\p{N}]+(?=\*)/gu;
/** websearch syntax's OR (any case), an operator rather than a word. */
const OR = /^or$/i;

/** Throws a 400 naming `q` when the query as typed is past one of its bounds. */
export function checkTextQuery(q: string, bounds: QueryBounds = QUERY_BOUNDS): void {
  if (q.length > bounds.maxCharacters) throw queryRefused(`must be at most ${bounds.maxCharacters} characters (it has ${q.length})`);
  const prefixes = q.match(PREFIX) ?? [];
  if (prefixes.length > bounds.maxPrefixes) throw queryRefused(`may have at most ${bounds.maxPrefixes} prefix terms ending in * (it has ${prefixes.length})`);
  const words = (q.match(WORD) ?? []).filter((word) => !OR.test(word)).length;
  if (words > bounds.maxWords) throw queryRefused(`may have at most ${bounds.maxWords} words (it has ${words}); search for fewer words`);
  const short = prefixes.find((prefix) => [...prefix].length < bounds.minPrefixLength);
  if (short !== undefined) throw queryRefused(`has the prefix "${short}*": a prefix needs at least ${bounds.minPrefixLength} letters or digits before the *`);
}

/** The 400 for a query past a bound: `issue` says which, in words. */
export function queryRefused(issue: string) {
  return errors.validation("q", issue);
}
