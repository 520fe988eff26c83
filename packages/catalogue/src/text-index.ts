/**
 * A catalogue's full-text search held in memory: the weighted `tsvector` PostgreSQL stored for every document,
 * inverted (lexeme -> documents -> positions), answering `vector @@ query` and `ts_rank_cd(vector, query,
 * normalization)` with PostgreSQL's results, float4 rounding included (test/text-index.test.ts compares both on real
 * catalogues). PostgreSQL still does the linguistics: the vectors are its `to_tsvector`, the query its
 * `websearch_to_tsquery` (see compileTsquery). What it saves is the database's time: a search that ranked thousands
 * of matches in the database (8 ms for "trump" among 28,000 headlines, behind every other caller's queries) takes a
 * fraction of a millisecond here.
 *
 * The ranking follows PostgreSQL's calc_rank_cd (src/backend/utils/adt/tsrank.c): the document's query positions in
 * order, its covers (the shortest stretches that satisfy the query, found scanning up to where it is first
 * satisfied and back down to where it is satisfied again), each cover adding its weight (count / sum of 1/weight)
 * divided by 1 + its noise words. NOT is evaluated over the stretch in both scans.
 * Every query websearch_to_tsquery (and a prefix's to_tsquery) writes is answered here. A weight restriction
 * (`'word':A`), or a phrase whose sides are not words or phrases, cannot be written that way: such a query is a
 * programming error, and `search` throws.
 *
 * Every search is bounded before it runs (IndexBounds, see query-bounds.ts): its terms, the words each prefix stands
 * for, and its work, estimated from the postings' sizes: the postings merged, the ranked documents times the lexemes
 * looked up for each, and the positions the covers are made of. A query past one is refused with a 400 naming `q`.
 */
import { INDEX_BOUNDS, queryRefused, type IndexBounds } from "./query-bounds.js";
import { parseTsquery, parseTsvector, positionOf, weightOf, type ParsedQuery, type QueryNode } from "./text-query.js";

/** ts_rank_cd's default weights of D, C, B and A, as float4. */
const WEIGHTS = [0.1, 0.2, 0.4, 1.0].map(Math.fround);
const INVERSE_WEIGHTS = WEIGHTS.map((w) => 1 / w);

interface Posting {
  /** The lexeme's rank in byte order, as PostgreSQL orders a tsvector's entries. */
  id: number;
  docs: Int32Array;
  /** positions of docs[k]: positions[offsets[k] .. offsets[k + 1]) */
  offsets: Int32Array;
  positions: Uint16Array;
}

export interface TextMatches {
  /** Matching documents, ascending (their ordinal in the vectors the index was built from). */
  docs: Int32Array;
  /** ts_rank_cd of each, as PostgreSQL's float4. */
  ranks: Float32Array;
}

type Term = ParsedQuery["terms"][number];

/**
 * The most operands ranked with a bit mask of the operands present (MaskedCovers): bit 31 is the sign of an Int32,
 * and `1 << 32` is 1 again. A query with more is ranked with QueryWindow, which has no such limit.
 */
const MASKED_OPERANDS = 30;

/**
 * What one step of a cover scan costs against one posting visited, measured: 12 required words over 100 planted
 * pages of 256 KiB (3.7 million steps) took 430 ms of CPU, about twice a posting's share of the work bound. Charged
 * at that, the most such a search may take is about 150 ms (bench/search-results/long-pages.ts).
 */
const COVER_SCAN_COST = 2;

/**
 * What a position of OR'ed words costs against one posting visited, with the snippet of each result (up to 16 KiB of
 * its page) that so broad a search brings: calibrated on 100 planted pages of 256 KiB at num=100, where 22 OR'ed
 * words (563,200 positions, the most this accepts) cost 175 to 215 ms of CPU and 32 cost 230 to 340 ms. The datasets'
 * 32 frequent words OR'ed stay accepted (110 ms).
 */
const OR_RANKING_COST = 7;

/** One query position of a document: what ts_rank_cd's covers are made of. */
interface DocPosition {
  encoded: number;
  entry: number;
  operands: number[];
}

export class TextIndex {
  readonly size: number;
  private readonly lexemes: string[];
  private readonly ids = new Map<string, number>();
  /**
   * Every lexeme's posting, packed into three arrays (lexeme `id`'s documents are `docs[docStart[id] ..
   * docStart[id + 1])`, its offsets the same range shifted by `id`, relative to `positionStart[id]`): a catalogue has
   * tens of thousands of lexemes, and seven heap objects each made the old generation's mark-compact, which stalls
   * every search under way, a third longer. A queried lexeme's Posting (views, no copies) is made when first needed.
   */
  private readonly packed: { docs: Int32Array; offsets: Int32Array; positions: Uint16Array; docStart: Int32Array; positionStart: Int32Array };
  private readonly opened = new Map<number, Posting>();
  /** cnt_length: positions in the document (a lexeme without positions counts once). */
  private readonly lengths: Int32Array;
  /** Distinct lexemes in the document (tsvector size). */
  private readonly entryCounts: Int32Array;
  private readonly anyWithoutPositions: boolean;

  /** `vectors[i]` is document i's `tsvector::text` (null or "" for a document without text). */
  constructor(
    vectors: readonly (string | null)[],
    private readonly bounds: IndexBounds = INDEX_BOUNDS,
  ) {
    this.size = vectors.length;
    this.lengths = new Int32Array(vectors.length);
    this.entryCounts = new Int32Array(vectors.length);
    const building = new Map<string, { docs: number[]; offsets: number[]; positions: number[] }>();
    let withoutPositions = false;
    vectors.forEach((text, doc) => {
      if (!text) return;
      const entries = parseTsvector(text);
      this.entryCounts[doc] = entries.length;
      let length = 0;
      for (const { lexeme, positions } of entries) {
        length += positions.length || 1;
        if (positions.length === 0) withoutPositions = true;
        let posting = building.get(lexeme);
        if (!posting) building.set(lexeme, (posting = { docs: [], offsets: [0], positions: [] }));
        posting.docs.push(doc);
        for (const p of positions) posting.positions.push(p);
        posting.offsets.push(posting.positions.length);
      }
      this.lengths[doc] = length;
    });
    this.anyWithoutPositions = withoutPositions;
    this.lexemes = [...building.keys()].sort(byCodeUnits);
    this.packed = packPostings(this.lexemes.map((lexeme) => building.get(lexeme)!));
    this.lexemes.forEach((lexeme, id) => this.ids.set(lexeme, id));
  }

  /** Lexeme `id`'s posting, as views into the packed arrays. */
  private posting(id: number): Posting {
    let posting = this.opened.get(id);
    if (!posting) {
      const { docs, offsets, positions, docStart, positionStart } = this.packed;
      posting = {
        id,
        docs: docs.subarray(docStart[id], docStart[id + 1]),
        offsets: offsets.subarray(docStart[id] + id, docStart[id + 1] + id + 1),
        positions: positions.subarray(positionStart[id], positionStart[id + 1]),
      };
      this.opened.set(id, posting);
    }
    return posting;
  }

  /**
   * The documents matching `tsquery` (PostgreSQL's `tsquery::text`) with their ts_rank_cd under `normalization`
   * (its bit mask).
   */
  search(tsquery: string, normalization: number): TextMatches {
    const query = parseTsquery(tsquery);
    if (!query.root) return { docs: new Int32Array(0), ranks: new Float32Array(0) };
    this.checkSupported(query.root, tsquery);
    const entries = this.boundedEntries(query);
    const work = this.workOf(entries);
    this.checkWork(work.postings);
    const matched = this.matching(query.root, entries);
    const docs = matched.negated ? complement(matched.docs, this.size) : matched.docs;
    this.checkWork(work.postings + docs.length * work.lexemes + this.rankingWork(query, entries, docs, work.positions));
    const ranks = new Float32Array(docs.length);
    const cursors = new PostingCursors(entries.map((ids) => ids.map((id) => this.posting(id))));
    if (query.root.kind === "term" && entries[0].length === 1) {
      const posting = this.posting(entries[0][0]);
      const sum = emptyCoverSum();
      for (let k = 0; k < docs.length; k++)
        ranks[k] = this.normalize(docs[k], positionsAsCovers(posting.positions, posting.offsets[k], posting.offsets[k + 1], sum), normalization);
    } else if (isDisjunctionOfTerms(query.root)) {
      const covers = new DisjunctionCovers(cursors, this.lexemes.length);
      for (let i = 0; i < docs.length; i++) ranks[i] = this.normalize(docs[i], covers.of(docs[i]), normalization);
    } else if (!hasPhrase(query.root) && query.terms.length <= MASKED_OPERANDS) {
      const covers = new MaskedCovers(query.root, cursors);
      for (let i = 0; i < docs.length; i++) ranks[i] = this.normalize(docs[i], covers.of(docs[i]), normalization);
    } else {
      const window = new QueryWindow(query.terms.length);
      for (let i = 0; i < docs.length; i++) ranks[i] = this.normalize(docs[i], coverWeight(docPositions(docs[i], cursors), query, window), normalization);
    }
    return { docs, ranks };
  }

  /**
   * The documents matching `tsquery`, unranked (what a count needs; ranking is most of a search's cost).
   */
  documentsMatching(tsquery: string): Int32Array {
    const query = parseTsquery(tsquery);
    if (!query.root) return new Int32Array(0);
    this.checkSupported(query.root, tsquery);
    const entries = this.boundedEntries(query);
    this.checkWork(this.workOf(entries).postings);
    const matched = this.matching(query.root, entries);
    return matched.negated ? complement(matched.docs, this.size) : matched.docs;
  }

  private checkSupported(root: QueryNode, tsquery: string): void {
    if (!this.supports(root))
      throw new Error(
        `TextIndex cannot answer ${tsquery}: a weight restriction, or a phrase over other than words and phrases or over vectors without positions (websearch_to_tsquery writes none of these)`,
      );
  }

  private supports(node: QueryNode): boolean {
    switch (node.kind) {
      case "term":
        return node.weights === 0;
      case "not":
        return this.supports(node.child);
      case "and":
      case "or":
        return this.supports(node.left) && this.supports(node.right);
      case "phrase":
        return !this.anyWithoutPositions && isPhraseSide(node.left) && isPhraseSide(node.right) && this.supports(node.left) && this.supports(node.right);
    }
  }

  /** Each operand's lexeme ids; a 400 when the query has too many operands or a prefix stands for too many words. */
  private boundedEntries(query: ParsedQuery): number[][] {
    const { maxOperands } = this.bounds;
    if (query.terms.length > maxOperands) {
      throw queryRefused(
        `has ${query.terms.length} search terms once compiled (a hyphenated word counts as its parts too), more than ${maxOperands}; search for fewer words`,
      );
    }
    return query.terms.map((term) => this.entriesOf(term));
  }

  /** The lexeme ids a term matches: itself, or every lexeme it is a prefix of (at most maxPrefixExpansions). */
  private entriesOf(term: Term): number[] {
    if (!term.prefix) {
      const id = this.ids.get(term.lexeme);
      return id === undefined ? [] : [id];
    }
    const { maxPrefixExpansions } = this.bounds;
    const ids: number[] = [];
    for (let id = lowerBound(this.lexemes, term.lexeme); id < this.lexemes.length && this.lexemes[id].startsWith(term.lexeme); id++) {
      if (ids.length === maxPrefixExpansions) {
        throw queryRefused(`has the prefix "${term.lexeme}*", which stands for more than ${maxPrefixExpansions} words of the catalogue; give it more letters`);
      }
      ids.push(id);
    }
    return ids;
  }

  /** The sizes a search's work is estimated from: the operands' postings (documents), lexemes and positions. */
  private workOf(entries: number[][]): { postings: number; lexemes: number; positions: number } {
    const { docStart, positionStart } = this.packed;
    let postings = 0;
    let lexemes = 0;
    let positions = 0;
    for (const ids of entries) {
      lexemes += ids.length;
      for (const id of ids) {
        postings += docStart[id + 1] - docStart[id];
        positions += positionStart[id + 1] - positionStart[id];
      }
    }
    return { postings, lexemes, positions };
  }

  /**
   * The positions ranking visits. Covers of a query with required terms are found by scanning the matched documents'
   * positions once for each term (MaskedCovers, QueryWindow): their positions times the terms. OR'ed words are
   * ranked in one pass over the operands' positions, each charged with its share of the snippets such a search
   * builds; a single word's positions are read once.
   */
  private rankingWork(query: ParsedQuery, entries: number[][], docs: Int32Array, positions: number): number {
    const root = query.root!;
    if (root.kind === "term" && entries[0].length === 1) return positions;
    if (isDisjunctionOfTerms(root)) return positions * OR_RANKING_COST;
    return this.positionsInDocs(entries, docs) * query.terms.length * COVER_SCAN_COST;
  }

  /** The positions the operands have in `docs` (ascending): one merge of each posting with the documents. */
  private positionsInDocs(entries: number[][], docs: Int32Array): number {
    let total = 0;
    for (const ids of entries) {
      for (const id of ids) {
        const posting = this.posting(id);
        for (let k = 0, d = 0; k < posting.docs.length && d < docs.length; ) {
          if (posting.docs[k] < docs[d]) k++;
          else if (posting.docs[k] > docs[d]) d++;
          else {
            total += posting.offsets[k + 1] - posting.offsets[k];
            k++;
            d++;
          }
        }
      }
    }
    return total;
  }

  private checkWork(work: number): void {
    if (work > this.bounds.maxWork) {
      throw queryRefused(
        `is too broad to search: its terms occur too often in the catalogue (an estimated ${work} index entries to visit, more than ${this.bounds.maxWork}); use rarer words, longer prefixes or fewer of them`,
      );
    }
  }

  private matching(node: QueryNode, entries: number[][]): { docs: Int32Array; negated: boolean } {
    switch (node.kind) {
      case "term":
        return { docs: unionAll(entries[node.operand].map((id) => this.posting(id).docs)), negated: false };
      case "not": {
        const inner = this.matching(node.child, entries);
        return { docs: inner.docs, negated: !inner.negated };
      }
      case "and":
      case "or":
        return combine(node.kind, this.matching(node.left, entries), this.matching(node.right, entries));
      case "phrase": {
        const candidates = intersect(this.matching(node.left, entries).docs, this.matching(node.right, entries).docs);
        const kept = candidates.filter((doc) => {
          const positions = (term: Term) => this.positionsIn(doc, entries[term.operand]);
          return phraseMatch(node, positions) !== null;
        });
        return { docs: kept, negated: false };
      }
    }
  }

  /** The distinct positions (without weights) of these lexemes in one document, ascending. */
  private positionsIn(doc: number, ids: number[]): number[] {
    const all: number[] = [];
    for (const id of ids) {
      const posting = this.posting(id);
      const k = indexOf(posting.docs, doc);
      if (k < 0) continue;
      for (let p = posting.offsets[k]; p < posting.offsets[k + 1]; p++) all.push(positionOf(posting.positions[p]));
    }
    return [...new Set(all)].sort((a, b) => a - b);
  }

  /** calc_rank_cd's normalization of the covers' sum, rounded to float4 as PostgreSQL returns it. */
  private normalize(doc: number, { wdoc, sumDist, extents, any }: CoverSum, normalization: number): number {
    if (!any) return 0;
    const length = this.lengths[doc];
    const size = this.entryCounts[doc];
    if (normalization & 1 && size > 0) wdoc /= Math.log(length + 1);
    if (normalization & 2 && length > 0) wdoc /= length;
    if (normalization & 4 && extents > 0 && sumDist > 0) wdoc /= extents / sumDist;
    if (normalization & 8 && size > 0) wdoc /= size;
    if (normalization & 16 && size > 0) wdoc /= Math.log(size + 1) / Math.log(2);
    if (normalization & 32) wdoc /= wdoc + 1;
    return Math.fround(wdoc);
  }
}

interface CoverSum {
  wdoc: number;
  sumDist: number;
  extents: number;
  any: boolean;
}

/** The covers' sum when each position (in order) is a cover of its own. */
function positionsAsCovers(encoded: ArrayLike<number>, from: number, to: number, into: CoverSum): CoverSum {
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
const emptyCoverSum = (): CoverSum => ({ wdoc: 0, sumDist: 0, extents: 0, any: false });

function setCoverSum(into: CoverSum, wdoc: number, sumDist: number, extents: number): CoverSum {
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
class DisjunctionCovers {
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
function grown(array: Int32Array): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

/** What one position alone adds as a cover: count (1) / the inverse of its weight. */
const SINGLE_POSITION_COVER = INVERSE_WEIGHTS.map((inverse) => 1 / inverse);

const byPositionWeightEntry = (a: { encoded: number; entry: number }, b: { encoded: number; entry: number }) =>
  positionOf(a.encoded) - positionOf(b.encoded) || weightOf(a.encoded) - weightOf(b.encoded) || a.entry - b.entry;

function isDisjunctionOfTerms(node: QueryNode): boolean {
  return node.kind === "term" || (node.kind === "or" && isDisjunctionOfTerms(node.left) && isDisjunctionOfTerms(node.right));
}

/** The postings built per lexeme (offsets relative to the lexeme's positions, starting at 0), packed in lexeme order. */
function packPostings(built: readonly { docs: number[]; offsets: number[]; positions: number[] }[]) {
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
class PostingCursors {
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
function docPositions(doc: number, cursors: PostingCursors): DocPosition[] {
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
function coverWeight(doc: DocPosition[], query: ParsedQuery, window: QueryWindow): CoverSum {
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

const hasPhrase = (node: QueryNode): boolean =>
  node.kind === "phrase" || (node.kind === "not" ? hasPhrase(node.child) : node.kind === "term" ? false : hasPhrase(node.left) || hasPhrase(node.right));

type Evaluator = (present: number) => boolean;

/** TS_execute over a bit mask of the operands present (without phrases, whose positions matter). */
function evaluatorOf(node: QueryNode): Evaluator {
  switch (node.kind) {
    case "term": {
      const bit = 1 << node.operand;
      return (present) => (present & bit) !== 0;
    }
    case "not": {
      const child = evaluatorOf(node.child);
      return (present) => !child(present);
    }
    case "and": {
      const [left, right] = [evaluatorOf(node.left), evaluatorOf(node.right)];
      return (present) => left(present) && right(present);
    }
    case "or": {
      const [left, right] = [evaluatorOf(node.left), evaluatorOf(node.right)];
      return (present) => left(present) || right(present);
    }
    case "phrase":
      throw new Error("a phrase needs positions");
  }
}

/**
 * calc_rank_cd for queries without phrases, in typed arrays: a document's query positions merged from each
 * operand's sorted positions (by position, weight, lexeme; one entry per position and lexeme with the operands it
 * serves as a bit mask), then its covers, scanning with the mask of the operands seen.
 */
class MaskedCovers {
  private readonly evaluate: Evaluator;
  private encoded = new Int32Array(64);
  private entries = new Int32Array(64);
  private masks = new Int32Array(64);
  // The document's slices (one per operand and lexeme present), in parallel arrays reused for every document: a
  // search ranks thousands, and an object per slice was garbage that V8 came to allocate in the old generation.
  private slicePositions: Uint16Array[] = [];
  private sliceAt = new Int32Array(16);
  private sliceEnd = new Int32Array(16);
  private sliceEntry = new Int32Array(16);
  private sliceBit = new Int32Array(16);
  private sliceCount = 0;
  private sliceTotal = 0;
  private readonly addSlice = (operand: number, posting: Posting, k: number): void => {
    const s = this.sliceCount++;
    if (s === this.sliceAt.length) this.growSlices();
    const at = posting.offsets[k];
    const end = posting.offsets[k + 1];
    this.slicePositions[s] = posting.positions;
    this.sliceAt[s] = at;
    this.sliceEnd[s] = end;
    this.sliceEntry[s] = posting.id;
    this.sliceBit[s] = 1 << operand;
    this.sliceTotal += end - at;
  };

  constructor(
    root: QueryNode,
    private readonly cursors: PostingCursors,
  ) {
    this.evaluate = evaluatorOf(root);
  }

  of(doc: number): CoverSum {
    const n = this.merge(doc);
    const { encoded, masks, evaluate } = this;
    const sum: CoverSum = { wdoc: 0, sumDist: 0, extents: 0, any: n > 0 };
    let previousCentre = 0;
    let start = 0;
    while (start < n) {
      let present = 0;
      let end = -1;
      let q = 0;
      for (let i = start; i < n; i++) {
        present |= masks[i];
        if (evaluate(present)) {
          if ((encoded[i] & 0x3fff) > q) {
            q = encoded[i] & 0x3fff;
            end = i;
          }
          break;
        }
      }
      if (end < 0) break;
      present = 0;
      let p = Number.MAX_SAFE_INTEGER;
      let begin = -1;
      let i = end;
      for (; i >= start; i--) {
        present |= masks[i];
        if (evaluate(present)) {
          if ((encoded[i] & 0x3fff) < p) {
            begin = i;
            p = encoded[i] & 0x3fff;
          }
          break;
        }
      }
      if (p > q) {
        start++;
        continue;
      }
      start = i + 1;
      let inverseSum = 0;
      for (let j = begin; j <= end; j++) inverseSum += INVERSE_WEIGHTS[encoded[j] >> 14];
      let noise = q - p - (end - begin);
      if (noise < 0) noise = Math.trunc((end - begin) / 2);
      sum.wdoc += (end - begin + 1) / inverseSum / (1 + noise);
      const centre = (q + p) / 2;
      if (sum.extents > 0 && centre > previousCentre) sum.sumDist += 1 / (centre - previousCentre);
      previousCentre = centre;
      sum.extents++;
    }
    return sum;
  }

  /** get_docrep into the typed arrays; returns the count. */
  private merge(doc: number): number {
    this.sliceCount = 0;
    this.sliceTotal = 0;
    this.cursors.forEach(doc, this.addSlice);
    const total = this.sliceTotal;
    if (total > this.encoded.length) {
      const size = Math.max(total, this.encoded.length * 2);
      this.encoded = new Int32Array(size);
      this.entries = new Int32Array(size);
      this.masks = new Int32Array(size);
    }
    const { slicePositions, sliceAt, sliceEnd, sliceEntry, sliceBit, sliceCount } = this;
    let n = 0;
    for (;;) {
      let best = -1;
      let bestKey = 0;
      for (let s = 0; s < sliceCount; s++) {
        if (sliceAt[s] >= sliceEnd[s]) continue;
        const e = slicePositions[s][sliceAt[s]];
        // position, then weight, then lexeme: one comparable number
        const key = ((e & 0x3fff) * 4 + (e >> 14)) * 0x200000 + sliceEntry[s];
        if (best < 0 || key < bestKey) {
          best = s;
          bestKey = key;
        }
      }
      if (best < 0) return n;
      const e = slicePositions[best][sliceAt[best]++];
      if (n > 0 && this.encoded[n - 1] === e && this.entries[n - 1] === sliceEntry[best]) this.masks[n - 1] |= sliceBit[best];
      else {
        this.encoded[n] = e;
        this.entries[n] = sliceEntry[best];
        this.masks[n] = sliceBit[best];
        n++;
      }
    }
  }

  private growSlices(): void {
    this.sliceAt = grown(this.sliceAt);
    this.sliceEnd = grown(this.sliceEnd);
    this.sliceEntry = grown(this.sliceEntry);
    this.sliceBit = grown(this.sliceBit);
  }
}

interface Cover {
  begin: number;
  end: number;
  p: number;
  q: number;
}

/** The covers of a document (tsrank.c's Cover, called until it finds none). */
function* covers(doc: DocPosition[], query: ParsedQuery, window: QueryWindow): Generator<Cover> {
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
class QueryWindow {
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

const isPhraseSide = (node: QueryNode): boolean => node.kind === "term" || node.kind === "phrase";

/**
 * TS_phrase_execute for words and phrases: where `left <N> right` ends (the right side's positions whose left side
 * ends N + the right side's width before), and its width; null when it matches nowhere.
 */
function phraseMatch(node: QueryNode, positionsOf: (term: Term) => number[]): { ends: number[]; width: number } | null {
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

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The index of the first value of an ascending list that is not below `value` (the list's length when none is). */
export function lowerBound<T extends string | number>(sorted: ArrayLike<T>, value: T): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function indexOf(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] === value) return mid;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

function union(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i] < b[j])) out[n++] = a[i++];
    else if (i >= a.length || b[j] < a[i]) out[n++] = b[j++];
    else {
      out[n++] = a[i++];
      j++;
    }
  }
  return out.subarray(0, n);
}

/** The union of sorted lists: merged pairwise when few, else marked in a bitmap (linear in their sizes, whatever their number). */
function unionAll(lists: Int32Array[]): Int32Array {
  if (lists.length <= 2) return lists.reduce((all, list) => union(all, list), new Int32Array(0));
  let largest = 0;
  let total = 0;
  for (const list of lists) {
    total += list.length;
    if (list.length) largest = Math.max(largest, list[list.length - 1]);
  }
  const marked = new Uint8Array(largest + 1);
  for (const list of lists) for (let i = 0; i < list.length; i++) marked[list[i]] = 1;
  const out = new Int32Array(Math.min(total, largest + 1));
  let n = 0;
  for (let doc = 0; doc <= largest; doc++) if (marked[doc]) out[n++] = doc;
  return out.subarray(0, n);
}

function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    if (a[i] < b[j]) i++;
    else if (b[j] < a[i]) j++;
    else {
      out[n++] = a[i++];
      j++;
    }
  }
  return out.subarray(0, n);
}

/** a without b */
function subtract(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(a.length);
  let j = 0;
  let n = 0;
  for (let i = 0; i < a.length; i++) {
    while (j < b.length && b[j] < a[i]) j++;
    if (j >= b.length || b[j] !== a[i]) out[n++] = a[i];
  }
  return out.subarray(0, n);
}

function complement(docs: Int32Array, size: number): Int32Array {
  const all = new Int32Array(size);
  for (let i = 0; i < size; i++) all[i] = i;
  return subtract(all, docs);
}

/** AND and OR of sets that may be complements (NOT x is "every document but x"). */
function combine(kind: "and" | "or", a: { docs: Int32Array; negated: boolean }, b: { docs: Int32Array; negated: boolean }) {
  if (kind === "and") {
    if (!a.negated && !b.negated) return { docs: intersect(a.docs, b.docs), negated: false };
    if (!a.negated) return { docs: subtract(a.docs, b.docs), negated: false };
    if (!b.negated) return { docs: subtract(b.docs, a.docs), negated: false };
    return { docs: union(a.docs, b.docs), negated: true };
  }
  if (a.negated && b.negated) return { docs: intersect(a.docs, b.docs), negated: true };
  if (a.negated) return { docs: subtract(a.docs, b.docs), negated: true };
  if (b.negated) return { docs: subtract(b.docs, a.docs), negated: true };
  return { docs: union(a.docs, b.docs), negated: false };
}
