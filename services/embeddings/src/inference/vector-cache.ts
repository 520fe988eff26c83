/** Recent vectors by content: the same text for the same model is embedded once while it stays in memory. */
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";

export interface CachedVector {
  /** The raw vector; callers normalize a copy. */
  vector: Float32Array;
  tokens: number;
}

/** Key and value bookkeeping beside the vector's own bytes. */
const ENTRY_OVERHEAD_BYTES = 200;

export class VectorCache {
  private readonly lru: LRUCache<string, CachedVector> | null;

  constructor(maxBytes: number) {
    this.lru = maxBytes > 0 ? new LRUCache({ maxSize: maxBytes, sizeCalculation: (value) => value.vector.byteLength + ENTRY_OVERHEAD_BYTES }) : null;
  }

  /** A content address: the model and the exact text, hashed so that a long text costs 32 bytes of key. */
  static key(modelId: string, text: string): string {
    return createHash("sha256").update(modelId).update("\0").update(text).digest("base64");
  }

  get(key: string): CachedVector | undefined {
    return this.lru?.get(key);
  }

  set(key: string, value: CachedVector): void {
    this.lru?.set(key, value);
  }

  get entries(): number {
    return this.lru?.size ?? 0;
  }
}
