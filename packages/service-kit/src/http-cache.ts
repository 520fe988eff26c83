import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * HTTP caching for read-heavy services: an ETag derived from everything an answer depends on (data version,
 * the question), so no body needs hashing, and 304 for a client that already holds it.
 */
export function etagOf(inputs: unknown[]): string {
  return `"${createHash("sha256").update(JSON.stringify(inputs)).digest("base64url").slice(0, 27)}"`;
}

/** Whether If-None-Match names this ETag (weak or strong) or "*". */
export function clientHasCurrent(request: FastifyRequest, etag: string): boolean {
  const presented = request.headers["if-none-match"];
  return (
    !!presented &&
    presented.split(",").some((tag) => {
      const bare = tag.trim().replace(/^W\//, "");
      return bare === etag || bare === "*";
    })
  );
}

/**
 * Cache-Control and ETag. Private: answers pass through the metered gateway and must not be shared by
 * intermediaries between subscribers.
 */
export function setCacheHeaders(reply: FastifyReply, etag: string, maxAgeSeconds: number): FastifyReply {
  return reply.header("cache-control", `private, max-age=${maxAgeSeconds}`).header("etag", etag);
}

/** Answers 304 (with the cache headers) when the client already holds this ETag; true when it did. */
export function answerNotModified(request: FastifyRequest, reply: FastifyReply, etag: string, maxAgeSeconds: number): boolean {
  if (!clientHasCurrent(request, etag)) return false;
  void setCacheHeaders(reply, etag, maxAgeSeconds).code(304).send();
  return true;
}

/** The success envelope around data that is already JSON text (a cached answer is not serialized again). */
export function sendSerializedData(reply: FastifyReply, json: string): FastifyReply {
  return reply.type("application/json; charset=utf-8").send(`{"status":"success","data":${json},"timestamp":"${new Date().toISOString()}"}`);
}

export interface RenderedCacheOptions {
  /** Total characters (or bytes, for answers kept as bytes) kept (default 32 MiB). */
  maxChars?: number;
  /** Entries kept (default unbounded). */
  maxEntries?: number;
  /** A longer answer is not kept (default: any length). */
  maxEntryChars?: number;
  /** How long an answer is served from here (default: as long as it is kept). */
  ttlMs?: number;
}

/**
 * Answers already serialized to JSON, by a key that names everything they depend on (an ETag, a data version and the
 * question), least recently used evicted first. The big answers cost more to serialize than everything else a request
 * does, so a hot one is rendered once and then sent as is (with sendSerializedData). An answer is kept as text, or as
 * its UTF-8 bytes (`RenderedCache<Buffer>`), which live outside the JavaScript heap and cost its garbage collector
 * nothing while kept.
 */
export class RenderedCache<Answer extends string | Uint8Array = string> {
  private readonly entries = new Map<string, { json: Answer; stored: number; expires: number }>();
  private chars = 0;
  private readonly maxChars: number;
  private readonly maxEntries: number;
  private readonly maxEntryChars: number;
  private readonly ttlMs: number;

  constructor(options: RenderedCacheOptions = {}) {
    this.maxChars = options.maxChars ?? 32 * 1024 * 1024;
    this.maxEntries = options.maxEntries ?? Infinity;
    this.maxEntryChars = options.maxEntryChars ?? Infinity;
    this.ttlMs = options.ttlMs ?? Infinity;
  }

  /** The kept answer for `key`, if any and still fresh. */
  get(key: string): Answer | undefined {
    return this.getWithAge(key)?.json;
  }

  /** The kept answer for `key` with how long ago it was kept, if any and still fresh. */
  getWithAge(key: string): { json: Answer; ageMs: number } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.forget(key);
    const now = Date.now();
    if (entry.expires <= now) return undefined;
    this.entries.set(key, entry);
    this.chars += entry.json.length;
    return { json: entry.json, ageMs: now - entry.stored };
  }

  /** Whether an answer is kept for `key`, fresh or not (it is not touched). */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Whether a fresh answer is kept for `key` (it is not touched). */
  hasFresh(key: string): boolean {
    const entry = this.entries.get(key);
    return entry !== undefined && entry.expires > Date.now();
  }

  /** Forgets every answer (the data they came from changed). */
  clear(): void {
    this.entries.clear();
    this.chars = 0;
  }

  /** Keeps an answer (unless longer than maxEntryChars), evicting the least recently used beyond the bounds. */
  set(key: string, json: Answer): void {
    this.forget(key);
    if (json.length > this.maxEntryChars) return;
    const now = Date.now();
    this.entries.set(key, { json, stored: now, expires: now + this.ttlMs });
    this.chars += json.length;
    while ((this.entries.size > this.maxEntries || this.chars > this.maxChars) && this.entries.size > 1) {
      this.forget(this.entries.keys().next().value!);
    }
  }

  /** The kept answer for `key`, else `render()`'s result serialized and kept. */
  async render(this: RenderedCache<string>, key: string, render: () => Promise<unknown>): Promise<string> {
    const kept = this.get(key);
    if (kept !== undefined) return kept;
    const json = JSON.stringify(await render());
    this.set(key, json);
    return json;
  }

  private forget(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.chars -= entry.json.length;
  }
}
