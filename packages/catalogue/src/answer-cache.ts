/**
 * A catalogue's answers, kept for a short while (as SerpAPI keeps its searches for an hour): the same question asked
 * again within CATALOGUE_CACHE_SECONDS (default 60, 0 turns it off) is answered from memory, without a query.
 *
 * It sits behind the platform: authentication, quotas and metering (onRequest) and validation have run before it
 * answers, so a kept answer is counted like any other. Only 200 JSON answers to GET are kept, by path and query
 * string exactly as sent. The answer says where it came from in `Cache-Status` (RFC 9211) and, when kept, its `Age`;
 * a caller who wants a fresh answer sends `Cache-Control: no-cache` (the fresh answer replaces the kept one).
 * Ingestion in this process clears it (`clear()`); an `ingest` run in another process shows after at most the TTL.
 * Answers are kept as the bytes sent (see answersAsBytes), outside the JavaScript heap.
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
  /** Adds the cache to the routes registered in `app`'s scope (after it). */
  attach(app: FastifyInstance): void;
  /** Forgets every kept answer: the catalogue changed. */
  clear(): void;
}

function wantsFresh(request: FastifyRequest): boolean {
  const directives = request.headers["cache-control"] ?? request.headers.pragma ?? "";
  return /\bno-(cache|store)\b/i.test(Array.isArray(directives) ? directives.join(",") : directives);
}

export function createAnswerCache(settings: AnswerCacheSettings): AnswerCache {
  const kept = new RenderedCache<Buffer>({ ttlMs: settings.ttlSeconds * 1000, maxChars: settings.maxBytes, maxEntryChars: settings.maxBytes / 16 });
  const toKeep = new WeakSet<FastifyRequest>();
  const enabled = settings.ttlSeconds > 0;

  return {
    attach(app) {
      if (!enabled) return;
      app.addHook("preHandler", async (request, reply) => {
        if (request.method !== "GET") return;
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
        toKeep.add(request);
      });
      app.addHook("onSend", async (request, reply, payload) => {
        if (!toKeep.has(request)) return payload;
        toKeep.delete(request);
        const type = String(reply.getHeader("content-type") ?? "");
        if (reply.statusCode === 200 && Buffer.isBuffer(payload) && type.startsWith("application/json")) {
          kept.set(request.url, payload);
          reply.header("cache-status", `${reply.getHeader("cache-status")}; stored`);
        }
        return payload;
      });
    },
    clear: () => kept.clear(),
  };
}

/**
 * Sends the JSON answers of `app`'s scope as their UTF-8 bytes. A text answer is joined to the response's headers and
 * copied once more on the JavaScript heap before the socket encodes it; a page of results is tens of kilobytes, and
 * with twenty searches under way those copies were most of what the young generation's collections had to move.
 * Encoded once here, the bytes go to the socket as they are, and the answer cache keeps them as they are.
 */
export function answersAsBytes(app: FastifyInstance): void {
  // A callback hook, not an async one: this runs on every answer, and needs no promise of its own.
  app.addHook("onSend", (_request, _reply, payload, done) => done(null, typeof payload === "string" ? Buffer.from(payload) : payload));
}
