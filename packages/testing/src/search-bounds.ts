/**
 * Hostile text queries for a catalogue service's search, each bound at its edge (at the bound: answered; one past:
 * a 400 naming q) and the attacks that once stalled or failed the catalogue services: floods of one- and two-letter
 * prefixes, 32 and more excluded prefixes, minus-sign runs that overflowed PostgreSQL's query parser. The bounds are
 * passed in (the catalogue's QUERY_BOUNDS and the endpoint's own longest q), so the cases follow them.
 */
export interface SearchBoundsUnderTest {
  maxWords: number;
  maxPrefixes: number;
  minPrefixLength: number;
  /** The longest q the endpoint takes (its schema's maxLength). */
  maxLength: number;
}

export interface SearchBoundCase {
  name: string;
  q: string;
  /** 200, or 400 with an issue for q matching `issue`. */
  status: 200 | 400;
  issue?: RegExp;
}

const LETTERS = "etaoinshrdlcumwfgypbvkjxqz";
const PAIRS = "th he in er an re on at en nd ti es or te of ed is it al ar st to nt ng se ha as ou io le ve co me de hi".split(" ");

/** Prefixes that stand for no word of any catalogue (letters rarely found together), `count` of them. */
const rarePrefixes = (count: number, length = 3) => Array.from({ length: count }, (_, i) => `${"qxz".repeat(length).slice(0, length - 1)}${LETTERS[i]}*`);

/** The prefix flood of the attack: one- and two-letter prefixes up to `length` characters. */
export function prefixFlood(length: number): string {
  const words = PAIRS.flatMap((pair, i) => [`${pair}*`, `${LETTERS[i % LETTERS.length]}*`]);
  let text = "";
  for (let i = 0; (text + " " + words[i % words.length]).trim().length <= length; i++) text = (text + " " + words[i % words.length]).trim();
  return text;
}

export function searchBoundCases(bounds: SearchBoundsUnderTest): SearchBoundCase[] {
  const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(" ");
  const excludedPrefixes = (n: number) => ["the", ...Array.from({ length: n }, (_, i) => `-w${i}*`)].join(" ");
  const excludedWords = (n: number) => ["news", ...Array.from({ length: n }, (_, i) => `-w${i}`)].join(" ");
  const shortPrefix = "q".repeat(bounds.minPrefixLength);
  const cases: SearchBoundCase[] = [
    { name: `${bounds.maxWords} words`, q: words(bounds.maxWords), status: 200 },
    {
      name: `${bounds.maxWords + 1} words`,
      q: words(bounds.maxWords + 1),
      status: 400,
      issue: new RegExp(`at most ${bounds.maxWords} words \\(it has ${bounds.maxWords + 1}\\)`),
    },
    { name: `${bounds.maxPrefixes} prefixes`, q: rarePrefixes(bounds.maxPrefixes).join(" "), status: 200 },
    {
      name: `${bounds.maxPrefixes + 1} prefixes`,
      q: rarePrefixes(bounds.maxPrefixes + 1).join(" "),
      status: 400,
      issue: new RegExp(`at most ${bounds.maxPrefixes} prefix terms ending in \\* \\(it has ${bounds.maxPrefixes + 1}\\)`),
    },
    { name: `a prefix of ${bounds.minPrefixLength} letters`, q: `${shortPrefix}*`, status: 200 },
    {
      name: `a prefix of ${bounds.minPrefixLength - 1} letters`,
      q: `${shortPrefix.slice(1)}*`,
      status: 400,
      issue: new RegExp(`a prefix needs at least ${bounds.minPrefixLength} letters or digits`),
    },
    { name: `q of ${bounds.maxLength} characters`, q: "x".repeat(bounds.maxLength), status: 200 },
    { name: `q of ${bounds.maxLength + 1} characters`, q: "x".repeat(bounds.maxLength + 1), status: 400, issue: new RegExp(`${bounds.maxLength}`) },
    { name: "a flood of one- and two-letter prefixes as long as q allows", q: prefixFlood(bounds.maxLength), status: 400, issue: /prefix/ },
    {
      name: "ten one-letter prefixes",
      q: LETTERS.slice(0, 10)
        .split("")
        .map((l) => `${l}*`)
        .join(" "),
      status: 400,
      issue: /prefix/,
    },
    { name: "32 excluded prefixes", q: excludedPrefixes(32), status: 400, issue: new RegExp(`at most ${bounds.maxPrefixes} prefix terms`) },
    { name: `${bounds.maxPrefixes} excluded prefixes`, q: excludedPrefixes(bounds.maxPrefixes), status: 200 },
    { name: `a word and ${bounds.maxWords - 1} excluded words`, q: excludedWords(bounds.maxWords - 1), status: 200 },
    { name: "40 minus signs before a word", q: `news ${"-".repeat(40)}w1`, status: 200 },
    { name: "40 lone minus signs", q: `news ${"- ".repeat(40)}`, status: 200 },
    { name: "40 minus signs before parentheses", q: `news ${"-(".repeat(40)}w1`, status: 200 },
  ];
  return cases.filter((c) => c.q.length <= bounds.maxLength || c.status === 400);
}

/**
 * Two-letter prefixes of a catalogue's words as PostgreSQL counts the lexemes of its stored vectors (`vectorsSql`
 * selects one tsvector column): the one standing for the most words, and the broadest standing for at most `bound`.
 */
export async function prefixesAround(
  db: { query<Row>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }> },
  vectorsSql: string,
  bound: number,
): Promise<{ broad: { prefix: string; words: number }; narrow: { prefix: string; words: number } }> {
  const { rows } = await db.query<{ prefix: string; words: number }>(
    `SELECT left(word, 2) AS prefix, count(*)::int AS words FROM ts_stat($1) WHERE word ~ '^[a-z]{2}' GROUP BY 1 ORDER BY 2 DESC, 1`,
    [vectorsSql],
  );
  return { broad: rows[0], narrow: rows.find((row) => row.words <= bound)! };
}
