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
import { parseTsquery, parseTsvector, positionOf, type ParsedQuery, type QueryNode } from "./text-query.js";
import {
  type Posting,
  type Term,
  type CoverSum,
  positionsAsCovers,
  emptyCoverSum,
  setCoverSum,
  SINGLE_POSITION_COVER,
  DisjunctionCovers,
  isDisjunctionOfTerms,
  packPostings,
  PostingCursors,
  docPositions,
  coverWeight,
  hasPhrase,
  covers,
  QueryWindow,
  isPhraseSide,
  phraseMatch,
} from "./cover-rank.js";
import { MaskedCovers } from "./masked-covers.js";
import { byCodeUnits, lowerBound, indexOf, unionAll, intersect, subtract, combine } from "./sorted-sets.js";
import { INDEX_BOUNDS, queryRefused, type IndexBounds } from "./query-bounds.js";

export interface TextMatches {
  /** Matching documents, ascending (their ordinal in the vectors the index was built from). */
  docs: Int32Array;
  /** ts_rank_cd of each, as PostgreSQL's float4. */
  ranks: Float32Array;
}

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
  /** An array of the index's size for bestOf's sums, all zeros between searches. */
  private scratch: Float64Array | undefined;
  /** Per queried lexeme, each of its documents' summed weights (see bestOf). */
  private readonly summed = new Map<number, Float64Array>();
  /**
   * Per document, side by side (2 * doc, 2 * doc + 1): cnt_length, its positions (a lexeme without positions counts
   * once), and its distinct lexemes (the tsvector's size). Ranking reads both for each document it ranks, and a
   * document's pair shares a cache line: two arrays cost two misses per document.
   */
  private readonly sizes: Int32Array;
  /**
   * The documents that have a vector here, empty ones included (ascending): what a negation is taken from. A NULL
   * tsvector matches nothing in PostgreSQL, not even `!word`, and a catalogue of several tables gives each index the
   * other tables' documents as NULLs: so every document a search returns belongs to the index's own rows.
   */
  private readonly members: Int32Array;
  private readonly anyWithoutPositions: boolean;

  /** `vectors[i]` is document i's `tsvector::text`: "" for an empty one, null for none (a NULL, which no query matches). */
  constructor(
    vectors: readonly (string | null)[],
    private readonly bounds: IndexBounds = INDEX_BOUNDS,
  ) {
    this.size = vectors.length;
    this.sizes = new Int32Array(2 * vectors.length);
    const building = new Map<string, { docs: number[]; offsets: number[]; positions: number[] }>();
    let withoutPositions = false;
    const members: number[] = [];
    vectors.forEach((text, doc) => {
      if (text === null || text === undefined) return;
      members.push(doc);
      if (!text) return;
      const entries = parseTsvector(text);
      this.sizes[2 * doc + 1] = entries.length;
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
      this.sizes[2 * doc] = length;
    });
    this.members = Int32Array.from(members);
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
    const prepared = this.prepared(tsquery);
    if (!prepared) return { docs: new Int32Array(0), ranks: new Float32Array(0) };
    const { query, root, entries, work } = prepared;
    const matched = this.matching(root, entries);
    const docs = matched.negated ? subtract(this.members, matched.docs) : matched.docs;
    this.checkRankingWork(query, entries, docs, work);
    return { docs, ranks: this.ranks(query, entries, docs, normalization) };
  }

  /**
   * At least the `count` best of `docs` (documents matching `tsquery`, ascending) by ts_rank_cd, ascending, with
   * their ranks: those whose rank could reach the count-th best, so ties and near ties at the edge come too. A query
   * of words joined by OR (ranked under a normalization without bit 4, which reads the covers' spacing) ranks only
   * those: a document's rank for it follows from its words' weights alone (every position is a cover), summed per
   * word once and kept, and those estimates, exact but for rounding, pass over the rest without merging their
   * positions. Other queries rank every document. Refused as `search` would refuse ranking all of `docs`.
   */
  bestOf(tsquery: string, normalization: number, docs: Int32Array, count: number): TextMatches {
    const prepared = this.prepared(tsquery);
    if (!prepared) return { docs: new Int32Array(0), ranks: new Float32Array(0) };
    const { query, root, entries, work } = prepared;
    this.checkRankingWork(query, entries, docs, work);
    const ranked = count < docs.length && isDisjunctionOfTerms(root) && !(normalization & 4) ? this.likelyBest(entries, docs, normalization, count) : docs;
    return { docs: ranked, ranks: this.ranks(query, entries, ranked, normalization) };
  }

  /** The parsed query, its operands' lexeme ids and its work's sizes, refused past the postings' bound; null for an empty query. */
  private prepared(tsquery: string) {
    const query = parseTsquery(tsquery);
    if (!query.root) return null;
    this.checkSupported(query.root, tsquery);
    const entries = this.boundedEntries(query);
    const work = this.workOf(entries);
    this.checkWork(work.postings);
    return { query, root: query.root, entries, work };
  }

  private checkRankingWork(query: ParsedQuery, entries: number[][], docs: Int32Array, work: { postings: number; lexemes: number; positions: number }): void {
    this.checkWork(work.postings + docs.length * work.lexemes + this.rankingWork(query, entries, docs, work.positions));
  }

  /** ts_rank_cd of each of `docs` (ascending, each matching the query). */
  private ranks(query: ParsedQuery, entries: number[][], docs: Int32Array, normalization: number): Float32Array {
    const root = query.root!;
    const ranks = new Float32Array(docs.length);
    const cursors = new PostingCursors(entries.map((ids) => ids.map((id) => this.posting(id))));
    if (root.kind === "term" && entries[0].length === 1) {
      const posting = this.posting(entries[0][0]);
      const sum = emptyCoverSum();
      // `docs` are some of the word's documents (all of them, but for bestOf): found along its posting.
      for (let k = 0, d = 0; d < docs.length; k++) {
        if (posting.docs[k] !== docs[d]) continue;
        ranks[d] = this.normalize(docs[d], positionsAsCovers(posting.positions, posting.offsets[k], posting.offsets[k + 1], sum), normalization);
        d++;
      }
    } else if (isDisjunctionOfTerms(root)) {
      const covers = new DisjunctionCovers(cursors, this.lexemes.length);
      for (let i = 0; i < docs.length; i++) ranks[i] = this.normalize(docs[i], covers.of(docs[i]), normalization);
    } else if (!hasPhrase(root) && query.terms.length <= MASKED_OPERANDS) {
      const covers = new MaskedCovers(root, cursors);
      for (let i = 0; i < docs.length; i++) ranks[i] = this.normalize(docs[i], covers.of(docs[i]), normalization);
    } else {
      const window = new QueryWindow(query.terms.length);
      for (let i = 0; i < docs.length; i++) ranks[i] = this.normalize(docs[i], coverWeight(docPositions(docs[i], cursors), query, window), normalization);
    }
    return ranks;
  }

  /**
   * The documents of `docs` whose rank for a disjunction of the lexemes could reach the count-th best: its estimate
   * (the sum of their words' single-position covers, normalized) at most a millionth under the count-th estimate.
   * An estimate differs from the rank only by the order of the sum's additions and the float4 rounding, far less.
   */
  private likelyBest(entries: number[][], docs: Int32Array, normalization: number, count: number): Int32Array {
    // Each lexeme's weights added by document into an array of the index's size, kept for the next search and read
    // back for `docs` only (then zeroed): no merge of each posting with `docs`.
    const summed = (this.scratch ??= new Float64Array(this.size));
    const lexemes = new Set(entries.flat());
    for (const id of lexemes) {
      const postingDocs = this.posting(id).docs;
      const weights = this.weightSums(id);
      for (let k = 0; k < postingDocs.length; k++) summed[postingDocs[k]] += weights[k];
    }
    // The estimates go back into `summed`, each at its document (no array of them is allocated per search).
    const sum = emptyCoverSum();
    for (let d = 0; d < docs.length; d++) {
      const wdoc = summed[docs[d]];
      summed[docs[d]] = this.normalize(docs[d], setCoverSum(sum, wdoc, 0, wdoc > 0 ? 1 : 0), normalization);
    }
    const floor = countThBest(summed, docs, count) * (1 - 1e-6);
    let kept = 0;
    for (let d = 0; d < docs.length; d++) if (summed[docs[d]] >= floor) kept++;
    const best = new Int32Array(kept);
    for (let d = 0, k = 0; d < docs.length; d++) if (summed[docs[d]] >= floor) best[k++] = docs[d];
    for (const id of lexemes) for (const doc of this.posting(id).docs) summed[doc] = 0;
    for (let d = 0; d < docs.length; d++) summed[docs[d]] = 0;
    return best;
  }

  /** Each document's sum of a lexeme's single-position covers (its positions' weights), computed once per lexeme. */
  private weightSums(id: number): Float64Array {
    let sums = this.summed.get(id);
    if (!sums) {
      const posting = this.posting(id);
      sums = new Float64Array(posting.docs.length);
      for (let k = 0; k < sums.length; k++)
        for (let p = posting.offsets[k]; p < posting.offsets[k + 1]; p++) sums[k] += SINGLE_POSITION_COVER[posting.positions[p] >> 14];
      this.summed.set(id, sums);
    }
    return sums;
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
    return matched.negated ? subtract(this.members, matched.docs) : matched.docs;
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
    const length = this.sizes[2 * doc];
    const size = this.sizes[2 * doc + 1];
    if (normalization & 1 && size > 0) wdoc /= Math.log(length + 1);
    if (normalization & 2 && length > 0) wdoc /= length;
    if (normalization & 4 && extents > 0 && sumDist > 0) wdoc /= extents / sumDist;
    if (normalization & 8 && size > 0) wdoc /= size;
    if (normalization & 16 && size > 0) wdoc /= Math.log(size + 1) / Math.log(2);
    if (normalization & 32) wdoc /= wdoc + 1;
    return Math.fround(wdoc);
  }
}

/** A sorted run of the best values, kept from one search to the next (grown when a search asks for more). */
let bestRun = new Float64Array(128);

/**
 * The count-th largest of the values at `docs` (1 <= count <= docs.length; values >= 0): a sorted run of the best,
 * not a sort of all.
 */
function countThBest(values: Float64Array, docs: Int32Array, count: number): number {
  if (bestRun.length < count) bestRun = new Float64Array(Math.max(count, 2 * bestRun.length));
  const best = bestRun; // descending; zeros until filled, below or equal to any value
  best.fill(0, 0, count);
  for (let d = 0; d < docs.length; d++) {
    const value = values[docs[d]];
    if (value <= best[count - 1]) continue;
    let at = count - 1;
    while (at > 0 && best[at - 1] < value) {
      best[at] = best[at - 1];
      at--;
    }
    best[at] = value;
  }
  return best[count - 1];
}
