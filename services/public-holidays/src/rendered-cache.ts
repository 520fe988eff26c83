/**
 * Serialized answers by ETag. An answer depends only on what its ETag is derived from, so once
 * rendered it can be sent again as is: the big ones (all countries, a year of the United States)
 * cost more to serialize than everything else a request does.
 */
export class RenderedCache {
  private readonly entries = new Map<string, string>();
  private bytes = 0;

  constructor(private readonly maxBytes = 32 * 1024 * 1024) {}

  async get(key: string, render: () => Promise<unknown>): Promise<string> {
    const cached = this.entries.get(key);
    if (cached !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached;
    }
    const json = JSON.stringify(await render());
    this.entries.set(key, json);
    this.bytes += json.length;
    while (this.bytes > this.maxBytes && this.entries.size > 1) {
      const [oldestKey, oldest] = this.entries.entries().next().value!;
      this.entries.delete(oldestKey);
      this.bytes -= oldest.length;
    }
    return json;
  }
}
