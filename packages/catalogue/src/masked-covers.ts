/** ts_rank_cd's covers for a query of up to MASKED_OPERANDS operands, with a bit mask of the operands present. */
import { type QueryNode } from "./text-query.js";
import { INVERSE_WEIGHTS, type Posting, type CoverSum, emptyCoverSum, grown, PostingCursors } from "./cover-rank.js";

export type Evaluator = (present: number) => boolean;

/** TS_execute over a bit mask of the operands present (without phrases, whose positions matter). */
export function evaluatorOf(node: QueryNode): Evaluator {
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
 * The typed arrays every MaskedCovers works in, grown as needed and kept: a search ranks with a few of them, one after
 * the other (ranking is synchronous, a document at a time), and allocating seven arrays outside the heap for each
 * cost 1 % of a search.
 */
const scratch = {
  encoded: new Int32Array(64),
  entries: new Int32Array(64),
  masks: new Int32Array(64),
  sliceAt: new Int32Array(16),
  sliceEnd: new Int32Array(16),
  sliceEntry: new Int32Array(16),
  sliceBit: new Int32Array(16),
};

/**
 * calc_rank_cd for queries without phrases, in typed arrays: a document's query positions merged from each
 * operand's sorted positions (by position, weight, lexeme; one entry per position and lexeme with the operands it
 * serves as a bit mask), then its covers, scanning with the mask of the operands seen.
 */
export class MaskedCovers {
  private readonly evaluate: Evaluator;
  private encoded = scratch.encoded;
  private entries = scratch.entries;
  private masks = scratch.masks;
  // The document's slices (one per operand and lexeme present), in parallel arrays reused for every document: a
  // search ranks thousands, and an object per slice was garbage that V8 came to allocate in the old generation.
  private slicePositions: Uint16Array[] = [];
  private sliceAt = scratch.sliceAt;
  private sliceEnd = scratch.sliceEnd;
  private sliceEntry = scratch.sliceEntry;
  private sliceBit = scratch.sliceBit;
  private sliceCount = 0;
  private sliceTotal = 0;
  /** Filled for each document in turn (see CoverRank): an object per ranked document was about 7 KB a search. */
  private readonly sum = emptyCoverSum();
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
    let wdoc = 0;
    let sumDist = 0;
    let extents = 0;
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
      wdoc += (end - begin + 1) / inverseSum / (1 + noise);
      const centre = (q + p) / 2;
      if (extents > 0 && centre > previousCentre) sumDist += 1 / (centre - previousCentre);
      previousCentre = centre;
      extents++;
    }
    const { sum } = this;
    sum.wdoc = wdoc;
    sum.sumDist = sumDist;
    sum.extents = extents;
    // Any position at all, even with no cover (not extents > 0, as setCoverSum has it).
    sum.any = n > 0;
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
      scratch.encoded = this.encoded = new Int32Array(size);
      scratch.entries = this.entries = new Int32Array(size);
      scratch.masks = this.masks = new Int32Array(size);
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
    scratch.sliceAt = this.sliceAt = grown(this.sliceAt);
    scratch.sliceEnd = this.sliceEnd = grown(this.sliceEnd);
    scratch.sliceEntry = this.sliceEntry = grown(this.sliceEntry);
    scratch.sliceBit = this.sliceBit = grown(this.sliceBit);
  }
}
