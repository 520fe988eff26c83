/**
 * ts_rank_cd's cover density, as PostgreSQL's calc_rank_cd computes it (src/backend/utils/adt/tsrank.c): the
 * covers of a document's query positions, their weights and extents, by the fastest way a query's shape allows
 * (each position a cover, a disjunction of terms, a bit mask of the operands present, or a sliding window). Used by
 * TextIndex (text-index.ts).
 */
import { positionOf, weightOf, type ParsedQuery, type QueryNode } from "./text-query.js";

/** ts_rank_cd's default weights of D, C, B and A, as float4. */
export const WEIGHTS = [0.1, 0.2, 0.4, 1.0].map(Math.fround);
export const INVERSE_WEIGHTS = WEIGHTS.map((w) => 1 / w);
export interface Posting {
  /** The lexeme's rank in byte order, as PostgreSQL orders a tsvector's entries. */
  id: number;
  docs: Int32Array;
  /** positions of docs[k]: positions[offsets[k] .. offsets[k + 1]) */
  offsets: Int32Array;
  positions: Uint16Array;
}
export type Term = ParsedQuery["terms"][number];
/** One query position of a document: what ts_rank_cd's covers are made of. */
export interface DocPosition {
  encoded: number;
  entry: number;
  operands: number[];
}

export interface CoverSum {
  wdoc: number;
  sumDist: number;
  extents: number;
  any: boolean;
}

/** The covers' sum when each position (in order) is a cover of its own. */
export function positionsAsCovers(encoded: ArrayLike<number>, from: number, to: number, into: CoverSum): CoverSum {
  let wdoc = 0;
  let sumDist = 0;
  let previousCentre = 0;
  for (let i = from; i < to; i++) {
    wdoc += SINGLE_POSITION_COVER[encoded[i] >> 14];
    const centre = encoded[i] & 0x3fff;
    if (i > from && centre > previousCentre) sumDist += 1 / (centre - previousCentre);
    previousCentre = centre;
  }
  return setCoverSum(into, wdoc, sumDist, to - from);
}

/** A CoverSum to fill for each document in turn: one per search, not one per ranked document. */
export const emptyCoverSum = (): CoverSum => ({ wdoc: 0, sumDist: 0, extents: 0, any: false });

export function setCoverSum(into: CoverSum, wdoc: number, sumDist: number, extents: number): CoverSum {
  into.wdoc = wdoc;
  into.sumDist = sumDist;
  into.extents = extents;
  into.any = extents > 0;
  return into;
}

/**
 * The covers' sum of a query of words joined by OR (or one word), which each of its positions satisfies alone: every
 * position is a cover of its own, adding its weight (the general computation gives the same; this skips building
 * it). The document's positions of the query's lexemes are merged in get_docrep's order (position, weight, lexeme; a
 * pair seen twice, a lexeme of two operands, once) and summed as they come, in arrays kept from one document to the
 * next: this runs for every document a frequent word matches.
 */
export class DisjunctionCovers {
  private postings: Posting[] = [];
  private next = new Int32Array(16);
  private end = new Int32Array(16);
  private count = 0;
  private readonly sum = emptyCoverSum();
  private readonly collect = (_operand: number, posting: Posting, k: number) => {
    if (this.count === this.next.length) {
      this.next = grown(this.next);
      this.end = grown(this.end);
    }
    this.postings[this.count] = posting;
    this.next[this.count] = posting.offsets[k];
    this.end[this.count] = posting.offsets[k + 1];
    this.count++;
  };

  constructor(
    private readonly cursors: PostingCursors,
    private readonly lexemes: number,
  ) {}

  of(doc: number): CoverSum {
    this.count = 0;
    this.cursors.forEach(doc, this.collect);
    const { postings, next, end } = this;
    let wdoc = 0;
    let sumDist = 0;
    let extents = 0;
    let previousCentre = 0;
    let lastKey = -1;
    for (;;) {
      let best = -1;
      let bestKey = Infinity;
      for (let j = 0; j < this.count; j++) {
        if (next[j] === end[j]) continue;
        const at = postings[j].positions[next[j]];
        const key = (positionOf(at) * 4 + weightOf(at)) * this.lexemes + postings[j].id;
        if (key < bestKey) {
          best = j;
          bestKey = key;
        }
      }
      if (best < 0) break;
      const at = postings[best].positions[next[best]++];
      if (bestKey === lastKey) continue;
      lastKey = bestKey;
      wdoc += SINGLE_POSITION_COVER[at >> 14];
      const centre = at & 0x3fff;
      if (extents > 0 && centre > previousCentre) sumDist += 1 / (centre - previousCentre);
      previousCentre = centre;
      extents++;
    }
    return setCoverSum(this.sum, wdoc, sumDist, extents);
  }
}

/** The array at twice its length, its values kept. */
export function grown(array: Int32Array): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

/** What one position alone adds as a cover: count (1) / the inverse of its weight. */
export const SINGLE_POSITION_COVER = INVERSE_WEIGHTS.map((inverse) => 1 / inverse);

export const byPositionWeightEntry = (a: { encoded: number; entry: number }, b: { encoded: number; entry: number }) =>
  positionOf(a.encoded) - positionOf(b.encoded) || weightOf(a.encoded) - weightOf(b.encoded) || a.entry - b.entry;

export function isDisjunctionOfTerms(node: QueryNode): boolean {
  return node.kind === "term" || (node.kind === "or" && isDisjunctionOfTerms(node.left) && isDisjunctionOfTerms(node.right));
}

/** The postings built per lexeme (offsets relative to the lexeme's positions, starting at 0), packed in lexeme order. */
export function packPostings(built: readonly { docs: number[]; offsets: number[]; positions: number[] }[]) {
  const docStart = new Int32Array(built.length + 1);
  const positionStart = new Int32Array(built.length + 1);
  built.forEach((b, id) => {
    docStart[id + 1] = docStart[id] + b.docs.length;
    positionStart[id + 1] = positionStart[id] + b.positions.length;
  });
  const docs = new Int32Array(docStart[built.length]);
  const offsets = new Int32Array(docStart[built.length] + built.length);
  const positions = new Uint16Array(positionStart[built.length]);
  built.forEach((b, id) => {
    docs.set(b.docs, docStart[id]);
    offsets.set(b.offsets, docStart[id] + id);
    positions.set(b.positions, positionStart[id]);
  });
  return { docs, offsets, positions, docStart, positionStart };
}

/**
 * Walks the postings of each query operand's lexemes alongside the ranked documents (which come in ascending
 * order), so finding a document's positions costs no search.
 */
export class PostingCursors {
  private readonly cursors: number[][];

  constructor(private readonly operands: Posting[][]) {
    this.cursors = operands.map((postings) => postings.map(() => 0));
  }

  forEach(doc: number, visit: (operand: number, posting: Posting, k: number) => void): void {
    // Loops rather than forEach: this runs once per ranked document, and closures made here were per-document garbage.
    for (let operand = 0; operand < this.operands.length; operand++) {
      const postings = this.operands[operand];
      const cursors = this.cursors[operand];
      for (let j = 0; j < postings.length; j++) {
        const posting = postings[j];
        let c = cursors[j];
        while (c < posting.docs.length && posting.docs[c] < doc) c++;
        cursors[j] = c;
        if (posting.docs[c] === doc) visit(operand, posting, c);
      }
    }
  }
}

/** get_docrep: every position of a query lexeme in the document, by position, weight and lexeme; one per (position, lexeme). */
export function docPositions(doc: number, cursors: PostingCursors): DocPosition[] {
  const raw: { encoded: number; entry: number; operand: number }[] = [];
  cursors.forEach(doc, (operand, posting, k) => {
    const entry = posting.id;
    for (let p = posting.offsets[k]; p < posting.offsets[k + 1]; p++) raw.push({ encoded: posting.positions[p], entry, operand });
  });
  raw.sort(byPositionWeightEntry);
  const merged: DocPosition[] = [];
  for (const r of raw) {
    const last = merged.at(-1);
    if (last && last.encoded === r.encoded && last.entry === r.entry) last.operands.push(r.operand);
    else merged.push({ encoded: r.encoded, entry: r.entry, operands: [r.operand] });
  }
  return merged;
}

/** The covers' sum for a document (tsrank.c's Cover, called until it finds none, and calc_rank_cd's loop). */
export function coverWeight(doc: DocPosition[], query: ParsedQuery, window: QueryWindow): CoverSum {
  const sum: CoverSum = { wdoc: 0, sumDist: 0, extents: 0, any: doc.length > 0 };
  let previousCentre = 0;
  for (const cover of covers(doc, query, window)) {
    let inverseSum = 0;
    for (let i = cover.begin; i <= cover.end; i++) inverseSum += INVERSE_WEIGHTS[weightOf(doc[i].encoded)];
    const cpos = (cover.end - cover.begin + 1) / inverseSum;
    let noise = cover.q - cover.p - (cover.end - cover.begin);
    if (noise < 0) noise = Math.trunc((cover.end - cover.begin) / 2);
    sum.wdoc += cpos / (1 + noise);
    const centre = (cover.q + cover.p) / 2;
    if (sum.extents > 0 && centre > previousCentre) sum.sumDist += 1 / (centre - previousCentre);
    previousCentre = centre;
    sum.extents++;
  }
  return sum;
}

export const hasPhrase = (node: QueryNode): boolean =>
  node.kind === "phrase" || (node.kind === "not" ? hasPhrase(node.child) : node.kind === "term" ? false : hasPhrase(node.left) || hasPhrase(node.right));

export interface Cover {
  begin: number;
  end: number;
  p: number;
  q: number;
}

/** The covers of a document (tsrank.c's Cover, called until it finds none). */
export function* covers(doc: DocPosition[], query: ParsedQuery, window: QueryWindow): Generator<Cover> {
  let start = 0;
  while (start < doc.length) {
    window.reset(false);
    let q = 0;
    let end = -1;
    let last = start;
    for (let i = start; i < doc.length; i++) {
      window.fill(doc[i]);
      if (window.satisfies(query.root!)) {
        const pos = positionOf(doc[i].encoded);
        if (pos > q) {
          q = pos;
          end = i;
          last = i;
        }
        break;
      }
    }
    if (end < 0) return;
    window.reset(true);
    let p = Number.MAX_SAFE_INTEGER;
    let begin = -1;
    let i = last;
    for (; i >= start; i--) {
      window.fill(doc[i]);
      if (window.satisfies(query.root!)) {
        const pos = positionOf(doc[i].encoded);
        if (pos < p) {
          begin = i;
          p = pos;
        }
        break;
      }
    }
    if (p <= q) {
      start = i + 1;
      yield { begin, end, p, q };
    } else start++;
  }
}

/** Which operands the stretch scanned so far holds, and at which positions (for phrases). */
export class QueryWindow {
  private readonly exists: boolean[];
  private readonly positions: number[][];
  private reverse = false;

  constructor(operands: number) {
    this.exists = new Array<boolean>(operands).fill(false);
    this.positions = Array.from({ length: operands }, () => []);
  }

  reset(reverse: boolean): void {
    this.exists.fill(false);
    for (const list of this.positions) list.length = 0;
    this.reverse = reverse;
  }

  fill(entry: DocPosition): void {
    const pos = positionOf(entry.encoded);
    for (const operand of entry.operands) {
      this.exists[operand] = true;
      const list = this.positions[operand];
      if (list.at(-1) !== pos) list.push(pos);
    }
  }

  /** TS_execute over the stretch (NOT evaluated, in both directions, as PostgreSQL 13 and later do). */
  satisfies(node: QueryNode): boolean {
    switch (node.kind) {
      case "term":
        return this.exists[node.operand];
      case "not":
        return !this.satisfies(node.child);
      case "and":
        return this.satisfies(node.left) && this.satisfies(node.right);
      case "or":
        return this.satisfies(node.left) || this.satisfies(node.right);
      case "phrase":
        return phraseMatch(node, (term) => (this.reverse ? [...this.positions[term.operand]].reverse() : this.positions[term.operand])) !== null;
    }
  }
}

export const isPhraseSide = (node: QueryNode): boolean => node.kind === "term" || node.kind === "phrase";

/**
 * TS_phrase_execute for words and phrases: where `left <N> right` ends (the right side's positions whose left side
 * ends N + the right side's width before), and its width; null when it matches nowhere.
 */
export function phraseMatch(node: QueryNode, positionsOf: (term: Term) => number[]): { ends: number[]; width: number } | null {
  if (node.kind === "term") {
    const ends = positionsOf(node);
    return ends.length ? { ends, width: 0 } : null;
  }
  if (node.kind !== "phrase") return null;
  const left = phraseMatch(node.left, positionsOf);
  if (!left) return null;
  const right = phraseMatch(node.right, positionsOf);
  if (!right) return null;
  const leftEnds = new Set(left.ends);
  const ends = right.ends.filter((pos) => leftEnds.has(pos - node.distance - right.width));
  return ends.length ? { ends, width: left.width + node.distance + right.width } : null;
}
