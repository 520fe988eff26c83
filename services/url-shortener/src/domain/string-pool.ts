/**
 * Hands back one held copy of each distinct string seen, so that many long-lived records can share it while the
 * copies they were built from are collected young. Bounded: when full it starts afresh, which costs only sharing.
 */
export class StringPool {
  private readonly held = new Map<string, string>();

  constructor(private readonly maxEntries: number) {}

  intern(text: string): string {
    const known = this.held.get(text);
    if (known !== undefined) return known;
    if (this.held.size >= this.maxEntries) this.held.clear();
    this.held.set(text, text);
    return text;
  }

  get size(): number {
    return this.held.size;
  }
}
