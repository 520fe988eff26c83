import { codePointLength, codePointPrefix, normalizeName } from "./normalize.js";

const PREFIX_BUCKET_LENGTH = 3;

/** Postings are encoded as place index * 2, plus 1 when the name is an alternate (not the main) name. */
export const ALTERNATE_FLAG = 1;

/** Sorts after every character a key can hold, so `prefix + KEY_END` bounds the keys that start with `prefix`. */
const KEY_END = "\uffff";

export interface NamedPlace {
  index: number;
  primaryNames: string[];
  alternateNames: string[];
}

/**
 * Every normalized name of every place, sorted, stored as one UTF-8 blob with offsets
 * (700,000 names as JS strings and a hash map cost several times the memory).
 * Exact look-up: a binary search, then the name's postings.
 * Prefix look-up (3+ characters): the names starting with the prefix are a contiguous range of
 * ids; the postings of all names sharing their first three characters (a bucket) are kept in two
 * lists (main names, alternate names), each ordered by the place's importance, so that the
 * best matches come first and a search stops after `limit` hits.
 */
export interface NameIndexParts {
  blob: Uint8Array;
  keyStart: Int32Array;
  exactStart: Int32Array;
  exactPostings: Int32Array;
  bucketOfKey: Int32Array;
  /** bucket b's main-name entries are [groupStart[2b], groupStart[2b+1]), its alternate ones up to groupStart[2b+2] */
  groupStart: Int32Array;
  entryPosting: Int32Array;
  entryKey: Int32Array;
}

export class NameIndex {
  private readonly blob: Buffer;
  private readonly keyStart: Int32Array;
  private readonly exactStart: Int32Array;
  private readonly exactPostings: Int32Array;
  private readonly bucketOfKey: Int32Array;
  private readonly groupStart: Int32Array;
  private readonly entryPosting: Int32Array;
  private readonly entryKey: Int32Array;

  constructor(parts: NameIndexParts) {
    this.blob = Buffer.from(parts.blob.buffer, parts.blob.byteOffset, parts.blob.byteLength);
    this.keyStart = parts.keyStart;
    this.exactStart = parts.exactStart;
    this.exactPostings = parts.exactPostings;
    this.bucketOfKey = parts.bucketOfKey;
    this.groupStart = parts.groupStart;
    this.entryPosting = parts.entryPosting;
    this.entryKey = parts.entryKey;
  }

  parts(): NameIndexParts {
    const { keyStart, exactStart, exactPostings, bucketOfKey, groupStart, entryPosting, entryKey } = this;
    const blob = new Uint8Array(this.blob.buffer, this.blob.byteOffset, this.blob.byteLength);
    return { blob, keyStart, exactStart, exactPostings, bucketOfKey, groupStart, entryPosting, entryKey };
  }

  static build(places: Iterable<NamedPlace>, importanceRank: Int32Array): NameIndex {
    const collected = collectNames(places);
    // The built-in sort without a comparator is several times faster on strings than with one.
    const sortedKeys = [...collected.keyIds.keys()].sort();
    const rankOfId = new Int32Array(sortedKeys.length);
    sortedKeys.forEach((key, rank) => (rankOfId[collected.keyIds.get(key)!] = rank));
    const keyOf = collected.postingKeys.map((id) => rankOfId[id]);
    const valueOf = collected.postingValues;

    const [blob, keyStart] = encodeKeys(sortedKeys);
    const [exactStart, exactPostings] = groupBy(
      sortedKeys.length,
      keyOf.length,
      (i) => keyOf[i],
      (i) => valueOf[i],
    );
    const bucketOfKey = assignBuckets(sortedKeys);
    const bucketCount = bucketOfKey.reduce((highest, bucket) => Math.max(highest, bucket), -1) + 1;

    // Order postings by importance rank first, then group them by (bucket, main/alternate):
    // counting sorts are stable, so each group stays in importance order.
    const byRank = countingOrder(importanceRank.length, keyOf.length, (i) => importanceRank[valueOf[i] >> 1]);
    const inBuckets = byRank.filter((i) => bucketOfKey[keyOf[i]] !== -1);
    const groupOf = (i: number) => bucketOfKey[keyOf[i]] * 2 + (valueOf[i] & ALTERNATE_FLAG);
    const grouped = countingOrderOf(inBuckets, bucketCount * 2, groupOf);
    return new NameIndex({
      blob,
      keyStart,
      exactStart,
      exactPostings,
      bucketOfKey,
      groupStart: groupStarts(bucketCount * 2, inBuckets, groupOf),
      entryPosting: grouped.map((i) => valueOf[i]),
      entryKey: grouped.map((i) => keyOf[i]),
    });
  }

  get keyCount(): number {
    return this.keyStart.length - 1;
  }

  /** Postings of the name equal to `name` (already normalized). */
  forEachExact(name: string, visit: (posting: number) => void): void {
    const slot = this.lowerBound(name);
    if (slot === this.keyCount || this.keyAt(slot) !== name) return;
    for (let cursor = this.exactStart[slot]; cursor < this.exactStart[slot + 1]; cursor++) {
      visit(this.exactPostings[cursor]);
    }
  }

  /**
   * Postings of names that start with `prefix` and are longer than it, best first by
   * (main name before alternate at `alternatePenalty`) + importance; `visit` returns false to stop.
   */
  scanPrefix(prefix: string, importance: Float64Array, alternatePenalty: number, visit: (posting: number) => boolean): void {
    if (codePointLength(prefix) < PREFIX_BUCKET_LENGTH) return;
    let first = this.lowerBound(prefix);
    const end = this.lowerBound(prefix + KEY_END);
    if (first < end && this.keyAt(first) === prefix) first++;
    if (first >= end) return;
    const bucket = this.bucketOfKey[first];
    let main = this.groupStart[bucket * 2];
    const mainEnd = this.groupStart[bucket * 2 + 1];
    let alternate = mainEnd;
    const alternateEnd = this.groupStart[bucket * 2 + 2];
    const { entryPosting, entryKey } = this;
    while (main < mainEnd || alternate < alternateEnd) {
      let takeMain = alternate >= alternateEnd;
      if (!takeMain && main < mainEnd) {
        takeMain = importance[entryPosting[main] >> 1] >= importance[entryPosting[alternate] >> 1] - alternatePenalty;
      }
      const slot = takeMain ? main++ : alternate++;
      const key = entryKey[slot];
      if (key >= first && key < end && !visit(entryPosting[slot])) return;
    }
  }

  private keyAt(slot: number): string {
    return this.blob.toString("utf8", this.keyStart[slot], this.keyStart[slot + 1]);
  }

  /** The first slot whose key is not below `text` (UTF-16 order, the order the keys were sorted in). */
  private lowerBound(text: string): number {
    let low = 0;
    let high = this.keyCount;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.keyAt(middle) < text) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

interface CollectedNames {
  keyIds: Map<string, number>;
  postingKeys: Int32Array;
  postingValues: Int32Array;
}

function collectNames(places: Iterable<NamedPlace>): CollectedNames {
  const keyIds = new Map<string, number>();
  const postingKeys = new GrowableInt32();
  const postingValues = new GrowableInt32();
  const keyId = (key: string) => {
    let id = keyIds.get(key);
    if (id === undefined) {
      id = keyIds.size;
      keyIds.set(key, id);
    }
    return id;
  };
  for (const place of places) {
    const primary = place.index * 2;
    const seen = new Set<string>();
    const add = (name: string, posting: number) => {
      const key = normalizeName(name);
      if (key === "" || seen.has(key)) return;
      seen.add(key);
      postingKeys.push(keyId(key));
      postingValues.push(posting);
    };
    for (const name of place.primaryNames) add(name, primary);
    for (const name of place.alternateNames) add(name, primary + ALTERNATE_FLAG);
  }
  return { keyIds, postingKeys: postingKeys.view(), postingValues: postingValues.view() };
}

function encodeKeys(sortedKeys: string[]): [Buffer, Int32Array] {
  const starts = new Int32Array(sortedKeys.length + 1);
  let total = 0;
  sortedKeys.forEach((key, slot) => {
    starts[slot] = total;
    total += Buffer.byteLength(key, "utf8");
  });
  starts[sortedKeys.length] = total;
  const blob = Buffer.allocUnsafeSlow(total);
  sortedKeys.forEach((key, slot) => blob.write(key, starts[slot], "utf8"));
  return [blob, starts];
}

/** Sorted keys sharing their first three characters get one bucket id; shorter keys get none (-1). */
function assignBuckets(sortedKeys: string[]): Int32Array {
  const buckets = new Int32Array(sortedKeys.length).fill(-1);
  let bucket = -1;
  let current = "";
  sortedKeys.forEach((key, slot) => {
    if (codePointLength(key) < PREFIX_BUCKET_LENGTH) return;
    const head = codePointPrefix(key, PREFIX_BUCKET_LENGTH);
    if (head !== current) {
      current = head;
      bucket++;
    }
    buckets[slot] = bucket;
  });
  return buckets;
}

class GrowableInt32 {
  private data = new Int32Array(1 << 16);
  private length = 0;

  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }

  view(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

/** Compressed rows: values grouped by their group id, with start offsets. */
function groupBy(groupCount: number, itemCount: number, groupOf: (item: number) => number, valueOf: (item: number) => number): [Int32Array, Int32Array] {
  const order = countingOrder(groupCount, itemCount, groupOf);
  return [groupStarts(groupCount, order, groupOf), order.map(valueOf)];
}

/** The items 0..itemCount-1 stably sorted by an integer key in [0, keyCount). */
function countingOrder(keyCount: number, itemCount: number, keyOf: (item: number) => number): Int32Array {
  const items = new Int32Array(itemCount);
  for (let item = 0; item < itemCount; item++) items[item] = item;
  return countingOrderOf(items, keyCount, keyOf);
}

function countingOrderOf(items: Int32Array, keyCount: number, keyOf: (item: number) => number): Int32Array {
  const next = new Int32Array(keyCount + 1);
  for (const item of items) next[keyOf(item) + 1]++;
  for (let key = 0; key < keyCount; key++) next[key + 1] += next[key];
  const sorted = new Int32Array(items.length);
  for (const item of items) sorted[next[keyOf(item)]++] = item;
  return sorted;
}

function groupStarts(groupCount: number, items: Int32Array, groupOf: (item: number) => number): Int32Array {
  const starts = new Int32Array(groupCount + 1);
  for (const item of items) starts[groupOf(item) + 1]++;
  for (let group = 0; group < groupCount; group++) starts[group + 1] += starts[group];
  return starts;
}
