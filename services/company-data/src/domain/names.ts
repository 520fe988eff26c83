/**
 * Company names as keys: what two spellings of one company have in common. "Apple Inc.", "APPLE INC" and "Apple"
 * all become "apple"; "MURPHY OIL CORP /DE" becomes "murphy oil"; "Johnson & Johnson" becomes "johnson and johnson".
 */

/** Legal-form words dropped from the end of a name (repeatedly: "Foo Holdings Co., Ltd." keeps "foo holdings"). */
const LEGAL_SUFFIXES = [
  "inc",
  "incorporated",
  "corp",
  "corporation",
  "co",
  "company",
  "cos",
  "companies",
  "ltd",
  "limited",
  "plc",
  "llc",
  "lp",
  "llp",
  "sa",
  "ag",
  "nv",
  "se",
  "gmbh",
  "bv",
  "oyj",
  "asa",
  "ab",
  "spa",
  "kgaa",
  "lc",
  "pllc",
] as const;

const SUFFIXES = new Set<string>(LEGAL_SUFFIXES);

/** The tokens of a name: lower case, accents and punctuation gone, "&" read as "and". */
function tokens(name: string): string[] {
  return withoutParenthesized(name.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase())
    .replace(/\s\/[a-z]{2,3}\/?(?=\s|$)/g, " ") // EDGAR's state tag: "MURPHY OIL CORP /DE"
    .replace(/&/g, " and ")
    .replace(/['’]/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * Drops "(...)" groups (DBpedia's "Domo (company)") as `/\([^)]*\)/g` does, in linear time: no group closes after
 * the last ")", so the pattern runs only up to it, where every "(" it tries succeeds (a run of unclosed "(" in a
 * query would otherwise cost quadratic time).
 */
function withoutParenthesized(text: string): string {
  const end = text.lastIndexOf(")") + 1;
  // eslint-disable-next-line regexp/no-super-linear-move -- linear here: every "(" before `end` has a ")" after it.
  return text.slice(0, end).replace(/\([^)]*\)/g, " ") + text.slice(end);
}

/** Runs of single letters are one word: "L.L.C." is "llc", "A.O. Smith" is "ao smith". */
function joinInitials(words: string[]): string[] {
  const joined: string[] = [];
  let run = "";
  for (const word of words) {
    if (word.length === 1 && /\p{L}/u.test(word)) run += word;
    else {
      if (run) joined.push(run);
      run = "";
      joined.push(word);
    }
  }
  if (run) joined.push(run);
  return joined;
}

/** The name without its legal form, case, accents and punctuation: the key names are matched and searched on. */
export function nameKey(name: string): string {
  const words = joinInitials(tokens(name));
  while (words.length > 1 && SUFFIXES.has(words.at(-1)!)) words.pop();
  if (words.length > 1 && words[0] === "the") words.shift();
  return words.join(" ");
}

/**
 * The name with each word of one or two letters joined to the next ("jp morgan" -> "jpmorgan", "at t" -> "att"), as
 * brands written as one word are often typed apart; null when no word is that short.
 */
export function joinedShortWords(name: string): string | null {
  const words = joinInitials(tokens(name));
  const joined: string[] = [];
  let pending = "";
  for (const word of words) {
    if (word.length <= 2 && /\p{L}/u.test(word)) pending += word;
    else {
      joined.push(pending + word);
      pending = "";
    }
  }
  if (pending) joined.push(pending);
  return joined.length < words.length ? joined.join(" ") : null;
}

/** False for a name made only of legal forms ("Inc.", "Co Ltd"): nothing to search for. */
export function hasDistinctiveWord(name: string): boolean {
  return joinInitials(tokens(name)).some((word) => !SUFFIXES.has(word) && word !== "the");
}

/** A URL-safe id for a company without a CIK: the name key with hyphens ("tata-consultancy-services"). */
export function slugOf(name: string): string {
  const slug = nameKey(name)
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|(?<!-)-+$/g, "")
    .slice(0, 60)
    .replace(/(?<!-)-+$/, "");
  if (slug === "") return "company";
  // An id without a letter could read as a CIK.
  return /[a-z]/.test(slug) ? slug : `co-${slug}`;
}

/** A ticker as matched: upper case, separators gone ("BRK-B", "BRK.B" and "BRKB" are one ticker). */
export function tickerKey(ticker: string): string {
  return ticker.toUpperCase().replace(/[^A-Z0-9]/g, "");
}

/** US state and territory codes (USPS), for the headquarters filter. */
export const US_STATES = new Set([
  "AL",
  "AK",
  "AZ",
  "AR",
  "CA",
  "CO",
  "CT",
  "DE",
  "DC",
  "FL",
  "GA",
  "HI",
  "ID",
  "IL",
  "IN",
  "IA",
  "KS",
  "KY",
  "LA",
  "ME",
  "MD",
  "MA",
  "MI",
  "MN",
  "MS",
  "MO",
  "MT",
  "NE",
  "NV",
  "NH",
  "NJ",
  "NM",
  "NY",
  "NC",
  "ND",
  "OH",
  "OK",
  "OR",
  "PA",
  "RI",
  "SC",
  "SD",
  "TN",
  "TX",
  "UT",
  "VT",
  "VA",
  "WA",
  "WV",
  "WI",
  "WY",
  "PR",
  "GU",
  "VI",
  "AS",
  "MP",
]);
