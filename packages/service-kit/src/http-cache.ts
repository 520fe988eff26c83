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
  return !!presented && presented.split(",").some((tag) => {
    const bare = tag.trim().replace(/^W\//, "");
    return bare === etag || bare === "*";
  });
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
  return reply
    .type("application/json; charset=utf-8")
    .send(`{"status":"success","data":${json},"timestamp":"${new Date().toISOString()}"}`);
}
