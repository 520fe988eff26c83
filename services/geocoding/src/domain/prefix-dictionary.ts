/**
 * Sorted normalized keys, each with a list of integer values (postings).
 * Exact look-up and prefix ranges are binary searches; keys that share a prefix
 * are contiguous because the keys are sorted by UTF-16 code units.
 */
export class PrefixDictionary {
  private readonly keys: string[];
  private readonly postingStart: Int32Array;
  private readonly postings: Int32Array;

  private constructor(keys: string[], postingStart: Int32Array, postings: Int32Array) {
    this.keys = keys;
    this.postingStart = postingStart;
    this.postings = postings;
  }

  static build(entries: Map<string, number[]>): PrefixDictionary {
    const keys = [...entries.keys()].sort(compareCodeUnits);
    const postingStart = new Int32Array(keys.length + 1);
    let total = 0;
    for (let index = 0; index < keys.length; index++) {
      postingStart[index] = total;
      total += entries.get(keys[index])!.length;
    }
    postingStart[keys.length] = total;
    const postings = new Int32Array(total);
    for (let index = 0; index < keys.length; index++) {
      postings.set(entries.get(keys[index])!, postingStart[index]);
    }
    return new PrefixDictionary(keys, postingStart, postings);
  }

  get keyCount(): number {
    return this.keys.length;
  }

  /** Calls `visit(value, keyIsExact)` for every value of the key equal to `text` and, when `prefix`, of every key starting with it. */
  forEachMatch(text: string, prefix: boolean, visit: (value: number, exact: boolean) => void): void {
    let slot = this.lowerBound(text);
    const { keys, postingStart, postings } = this;
    while (slot < keys.length) {
      const key = keys[slot];
      const exact = key === text;
      if (!exact && !(prefix && key.startsWith(text))) break;
      for (let cursor = postingStart[slot]; cursor < postingStart[slot + 1]; cursor++) {
        visit(postings[cursor], exact);
      }
      slot++;
    }
  }

  private lowerBound(text: string): number {
    let low = 0;
    let high = this.keys.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.keys[middle] < text) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function addPosting(entries: Map<string, number[]>, key: string, value: number): void {
  const list = entries.get(key);
  if (list === undefined) entries.set(key, [value]);
  else if (list[list.length - 1] !== value) list.push(value);
}
