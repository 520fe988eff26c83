/**
 * A catalogue's answers, kept for a short while (as SerpAPI keeps its searches for an hour): the same question asked
 * again within CATALOGUE_CACHE_SECONDS (default 60, 0 turns it off) is answered from memory, without a query.
 *
 * It sits behind the platform: authentication, quotas and metering (onRequest) and validation have run before it
 * answers, so a kept answer is counted like any other. Only 200 JSON answers to GET are kept, by path and query
 * string exactly as sent. The answer says where it came from in `Cache-Status` (RFC 9211) and, when kept, its `Age`;
 * a caller who wants a fresh answer sends `Cache-Control: no-cache`.
 * A change to the catalogue clears it (`clear()`), whichever process ingested: buildCatalogueService clears it when
 * the catalogue's version changes (catalogue-version.ts), and `attach`'s `current` stops it answering while the version
 * cannot be read. An answer made from the catalogue before a clear is not kept after it.
 *
 * An answer is kept from the second time its question is asked (RecentQuestions), or when it replaces an expired
 * one; a fresh kept answer stays as it is (`Cache-Control: no-cache` gets a fresh answer, which changes nothing until
 * the next ingestion run clears the cache).
 * Kept answers are their UTF-8 bytes, outside the JavaScript heap: the heap's collector never marks them.
 */
import { integerSetting } from "@apiplat/config";
import { RenderedCache } from "@apiplat/service-kit";
import type { FastifyInstance, FastifyRequest } from "fastify";

const CACHE_NAME = "apiplat-catalogue";
const JSON_TYPE = "application/json; charset=utf-8";

export interface AnswerCacheSettings {
  /** How long an answer is kept; 0: never. */
  ttlSeconds: number;
  /** Bytes kept in all. */
  maxBytes: number;
}

export function answerCacheSettings(env: Record<string, string | undefined>): AnswerCacheSettings {
  return {
    ttlSeconds: integerSetting(env, "CATALOGUE_CACHE_SECONDS", 60, 0, 86_400),
    maxBytes: integerSetting(env, "CATALOGUE_CACHE_MB", 32, 1, 4_096) * 1024 * 1024,
  };
}

export interface AnswerCache {
  /**
   * Adds the cache to the routes registered in `app`'s scope (after it). While `current()` is false (the catalogue's
   * version is unknown of late) nothing is answered from it or kept: `Cache-Status: ...; fwd=bypass`.
   */
  attach(app: FastifyInstance, options?: { current?: () => boolean }): void;
  /** Forgets every kept answer: the catalogue changed. */
  clear(): void;
}

function wantsFresh(request: FastifyRequest): boolean {
  const directives = request.headers["cache-control"] ?? request.headers.pragma ?? "";
  return /\bno-(cache|store)\b/i.test(Array.isArray(directives) ? directives.join(",") : directives);
}

export function createAnswerCache(settings: AnswerCacheSettings): AnswerCache {
  const kept = new RenderedCache<Buffer>({ ttlMs: settings.ttlSeconds * 1000, maxChars: settings.maxBytes, maxEntryChars: settings.maxBytes / 16 });
  const recent = new RecentQuestions();
  // The clear() count when each request was asked: an answer made before a clear would bring the old catalogue back.
  const toKeep = new WeakMap<FastifyRequest, number>();
  let generation = 0;
  const enabled = settings.ttlSeconds > 0;
  // A fresh kept answer is left as it is: until an ingestion clears the cache, a new one differs only in its
  // timestamp, and replacing it would cost the same memory outside the heap as keeping a new answer.
  const worthKeeping = (question: string) => !kept.hasFresh(question) && (kept.has(question) || recent.askedBefore(question));

  return {
    attach(app, options = {}) {
      if (!enabled) return;
      const current = options.current ?? (() => true);
      app.addHook("preHandler", async (request, reply) => {
        if (request.method !== "GET") return;
        if (!current()) {
          reply.header("cache-status", `${CACHE_NAME}; fwd=bypass`);
          return;
        }
        if (wantsFresh(request)) {
          reply.header("cache-status", `${CACHE_NAME}; fwd=request`);
        } else {
          const hit = kept.getWithAge(request.url);
          if (hit) {
            reply.header("cache-status", `${CACHE_NAME}; hit`).header("age", String(Math.floor(hit.ageMs / 1000)));
            return reply.type(JSON_TYPE).send(hit.json);
          }
          reply.header("cache-status", `${CACHE_NAME}; fwd=uri-miss`);
        }
        toKeep.set(request, generation);
      });
      app.addHook("onSend", async (request, reply, payload) => {
        const askedAt = toKeep.get(request);
        if (askedAt === undefined) return payload;
        toKeep.delete(request);
        if (askedAt !== generation) return payload;
        const type = String(reply.getHeader("content-type") ?? "");
        if (reply.statusCode !== 200 || !type.startsWith("application/json")) return payload;
        if (typeof payload !== "string" && !Buffer.isBuffer(payload)) return payload;
        if (!worthKeeping(request.url)) return payload;
        kept.set(request.url, typeof payload === "string" ? Buffer.from(payload) : payload);
        reply.header("cache-status", `${reply.getHeader("cache-status")}; stored`);
        return payload;
      });
    },
    clear() {
      generation++;
      kept.clear();
    },
  };
}

/**
 * The questions asked lately, as a Bloom filter (two bits of 2^20 per question, started afresh after 65,536
 * questions, when about 1.4 % of new questions look asked): W-TinyLFU's doorkeeper. Keeping only the answers to
 * questions asked before keeps nothing of a stream of questions each asked once, the bulk of a search API's
 * traffic. Keeping every one of those cost more than it could save: megabytes a second of answers outside the heap,
 * to which V8 answers with a full mark-compact of the heap, about every second, each stalling every search under way
 * (search-results, 20 callers of distinct searches: p99 115 ms with them, 20 ms without).
 */
export class RecentQuestions {
  private static readonly BITS = 1 << 20;
  private readonly bits = new Uint32Array(RecentQuestions.BITS / 32);
  private remembered = 0;

  constructor(private readonly capacity = 1 << 16) {}

  /** Whether `question` was asked since the filter last started afresh; it is remembered from now on. */
  askedBefore(question: string): boolean {
    // FNV-1a, and a second position from it through murmur3's finalizer.
    let first = 0x811c9dc5;
    for (let i = 0; i < question.length; i++) first = Math.imul(first ^ question.charCodeAt(i), 0x01000193);
    let second = Math.imul(first ^ (first >>> 16), 0x85ebca6b);
    second = Math.imul(second ^ (second >>> 13), 0xc2b2ae35);
    second ^= second >>> 16;
    const a = first & (RecentQuestions.BITS - 1);
    const b = second & (RecentQuestions.BITS - 1);
    const asked = this.isSet(a) && this.isSet(b);
    if (asked) return true;
    if (this.remembered === this.capacity) {
      this.bits.fill(0);
      this.remembered = 0;
    }
    this.bits[a >>> 5] |= 1 << (a & 31);
    this.bits[b >>> 5] |= 1 << (b & 31);
    this.remembered++;
    return false;
  }

  private isSet(bit: number): boolean {
    return (this.bits[bit >>> 5] & (1 << (bit & 31))) !== 0;
  }
}
