/**
 * PostgreSQL's text-search values as text, read back: a `tsvector` (`'coffe':1A,4B 'cup':2A`) and a `tsquery`
 * (`'climat' & 'chang'`, `'suprem' <-> 'court'`, `'elect' & !'trump'`, `'cof':*`). The database does the
 * linguistics (parsing, stemming, stop words: `to_tsvector`, `websearch_to_tsquery`); these readers let the
 * in-memory TextIndex match and rank with what it produced.
 */

/** A position as PostgreSQL stores it (WordEntryPos): the weight in the top two bits (D = 0 ... A = 3), the position in the low 14. */
export type EncodedPosition = number;

export const positionOf = (encoded: EncodedPosition) => encoded & 0x3fff;
export const weightOf = (encoded: EncodedPosition) => encoded >> 14;

export interface VectorEntry {
  lexeme: string;
  /** Empty for a lexeme stored without positions. */
  positions: EncodedPosition[];
}

const WEIGHT_CLASS: Record<string, number> = { A: 3, B: 2, C: 1, D: 0 };

/** Reads a quoted lexeme starting at `start` (a `'`): `''` is a quote, a backslash escapes the next character. */
function readQuoted(text: string, start: number): { value: string; end: number } {
  let value = "";
  let i = start + 1;
  for (;;) {
    const ch = text[i];
    if (ch === undefined) throw new Error("unterminated lexeme in text-search value");
    if (ch === "\\") {
      value += text[i + 1] ?? "";
      i += 2;
    } else if (ch === "'") {
      if (text[i + 1] === "'") {
        value += "'";
        i += 2;
      } else return { value, end: i + 1 };
    } else {
      value += ch;
      i++;
    }
  }
}

/** Reads `tsvector::text`. */
export function parseTsvector(text: string): VectorEntry[] {
  const entries: VectorEntry[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === " ") {
      i++;
      continue;
    }
    const { value, end } = readQuoted(text, i);
    i = end;
    const positions: EncodedPosition[] = [];
    if (text[i] === ":") {
      i++;
      for (;;) {
        let n = 0;
        while (text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) n = n * 10 + text.charCodeAt(i++) - 48;
        const weight = WEIGHT_CLASS[text[i]];
        if (weight !== undefined) i++;
        positions.push(((weight ?? 0) << 14) | n);
        if (text[i] !== ",") break;
        i++;
      }
    }
    entries.push({ lexeme: value, positions });
  }
  return entries;
}

export type QueryNode =
  | { kind: "term"; lexeme: string; prefix: boolean; weights: number; operand: number }
  | { kind: "not"; child: QueryNode }
  | { kind: "and" | "or"; left: QueryNode; right: QueryNode }
  | { kind: "phrase"; distance: number; left: QueryNode; right: QueryNode };

/** A parsed tsquery, shared by every search of the same text (see parseTsquery): read, never changed. */
export interface ParsedQuery {
  /** Null for the empty query (only stop words), which matches nothing. */
  readonly root: QueryNode | null;
  /** The operands in the order of the text (`operand` indexes this). */
  readonly terms: readonly Extract<QueryNode, { kind: "term" }>[];
}

/** Parsed tsqueries by their text: a search reads each of its tsqueries in two or three indexes, and parsing is pure. */
const parsed = new Map<string, ParsedQuery>();
const PARSED_KEPT = 256;

/** Reads `tsquery::text` (the operators' precedence: `!`, then `<->`, then `&`, then `|`; left-associative). */
export function parseTsquery(text: string): ParsedQuery {
  let query = parsed.get(text);
  if (!query) {
    query = new TsqueryReader(text).read();
    if (parsed.size >= PARSED_KEPT) parsed.delete(parsed.keys().next().value!);
    parsed.set(text, query);
  }
  return query;
}

/** A recursive-descent reader over one tsquery's text (methods rather than closures: closures made per query cost more). */
class TsqueryReader {
  private readonly terms: Extract<QueryNode, { kind: "term" }>[] = [];
  private i = 0;

  constructor(private readonly text: string) {}

  read(): ParsedQuery {
    const { text, terms } = this;
    this.skip();
    if (this.i >= text.length) return { root: null, terms };
    const root = this.or();
    this.skip();
    if (this.i < text.length) throw new Error(`unexpected ${text.slice(this.i, this.i + 10)} in tsquery ${text}`);
    return { root, terms };
  }

  private skip(): void {
    while (this.text[this.i] === " ") this.i++;
  }

  private operand(): QueryNode {
    const { text } = this;
    this.skip();
    if (text[this.i] === "!") {
      this.i++;
      return { kind: "not", child: this.operand() };
    }
    if (text[this.i] === "(") {
      this.i++;
      const inner = this.or();
      this.skip();
      if (text[this.i] !== ")") throw new Error(`expected ) at ${this.i} in tsquery ${text}`);
      this.i++;
      return inner;
    }
    const { value, end } = readQuoted(text, this.i);
    this.i = end;
    let prefix = false;
    let weights = 0;
    if (text[this.i] === ":") {
      this.i++;
      while (/[*ABCD]/.test(text[this.i] ?? "")) {
        if (text[this.i] === "*") prefix = true;
        else weights |= 1 << WEIGHT_CLASS[text[this.i]];
        this.i++;
      }
    }
    const term = { kind: "term" as const, lexeme: value, prefix, weights, operand: this.terms.length };
    this.terms.push(term);
    return term;
  }

  private phrase(): QueryNode {
    let left = this.operand();
    for (;;) {
      this.skip();
      if (this.text[this.i] !== "<") return left;
      const match = /^<(-|\d+)>/.exec(this.text.slice(this.i, this.i + 8));
      if (!match) return left;
      this.i += match[0].length;
      left = { kind: "phrase", distance: match[1] === "-" ? 1 : Number(match[1]), left, right: this.operand() };
    }
  }

  private and(): QueryNode {
    let left = this.phrase();
    for (;;) {
      this.skip();
      if (this.text[this.i] !== "&") return left;
      this.i++;
      left = { kind: "and", left, right: this.phrase() };
    }
  }

  private or(): QueryNode {
    let left = this.and();
    for (;;) {
      this.skip();
      if (this.text[this.i] !== "|") return left;
      this.i++;
      left = { kind: "or", left, right: this.and() };
    }
  }
}
