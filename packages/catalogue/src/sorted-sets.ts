/** Ascending lists of document ordinals as sets: search, union, intersection and difference. */
export function byCodeUnits(a: string, b: string): number {
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

export function indexOf(sorted: Int32Array, value: number): number {
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

export function union(a: Int32Array, b: Int32Array): Int32Array {
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

/**
 * The union of sorted lists: merged pairwise when few, else marked in a bitmap (linear in their sizes, whatever their
 * number). One list is its own union, returned as it is (lists and sets are never written once made): a word of one
 * lexeme, most of a query's, was copied from its posting before.
 */
export function unionAll(lists: Int32Array[]): Int32Array {
  if (lists.length === 1) return lists[0];
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

export function intersect(a: Int32Array, b: Int32Array): Int32Array {
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
export function subtract(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(a.length);
  let j = 0;
  let n = 0;
  for (let i = 0; i < a.length; i++) {
    while (j < b.length && b[j] < a[i]) j++;
    if (j >= b.length || b[j] !== a[i]) out[n++] = a[i];
  }
  return out.subarray(0, n);
}

/** AND and OR of sets that may be negated (NOT x is "every document of the index but x"). */
export function combine(kind: "and" | "or", a: { docs: Int32Array; negated: boolean }, b: { docs: Int32Array; negated: boolean }) {
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
