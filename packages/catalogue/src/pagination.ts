/**
 * Cursor pagination. A cursor is opaque to the caller: base64url of the position after the last item returned plus
 * a fingerprint of the query it belongs to, so a cursor replayed against other filters is refused (400) rather
 * than silently paging through a different list. Positions are offsets into a deterministic order (every sort ends
 * with the natural key), which keeps every sort (relevance included) pageable with one mechanism.
 */
import { createHash } from "node:crypto";
import { errors } from "@apiplat/errors";
import { Type } from "typebox";

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;
/** Deepest position a cursor may point at: beyond it the caller should narrow the query. */
export const MAX_OFFSET = 10_000;

export const LimitQuery = Type.Integer({
  minimum: 1,
  maximum: MAX_LIMIT,
  default: DEFAULT_LIMIT,
  description: `results per page, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})`,
});
export const CursorQuery = Type.String({
  maxLength: 200,
  description: "the next_cursor of the previous page, unchanged; the other parameters must be the same",
});

export interface Page {
  offset: number;
  limit: number;
  fingerprint: string;
}

/** A short digest of the parameters that define the list (everything but cursor and limit). */
export function queryFingerprint(query: Record<string, unknown>): string {
  const entries = Object.entries(query)
    .filter(([key, value]) => key !== "cursor" && key !== "limit" && value !== undefined)
    .sort(([a], [b]) => a.localeCompare(b));
  return createHash("sha256").update(JSON.stringify(entries)).digest("base64url").slice(0, 12);
}

export function encodeCursor(offset: number, fingerprint: string): string {
  return Buffer.from(JSON.stringify({ o: offset, f: fingerprint })).toString("base64url");
}

const INVALID = "is not a cursor returned for this query: pass next_cursor unchanged, with the same parameters";

/** The page a request asks for: from its `cursor` (400 when it is not one of ours for this query) and `limit`. */
export function pageOf(query: Record<string, unknown> & { cursor?: string; limit?: number }): Page {
  const fingerprint = queryFingerprint(query);
  const limit = query.limit ?? DEFAULT_LIMIT;
  if (query.cursor === undefined) return { offset: 0, limit, fingerprint };
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(query.cursor, "base64url").toString("utf8"));
  } catch {
    throw errors.validation("cursor", INVALID);
  }
  const { o, f } = (decoded ?? {}) as { o?: unknown; f?: unknown };
  if (typeof o !== "number" || !Number.isInteger(o) || o < 0 || o > MAX_OFFSET || f !== fingerprint) {
    throw errors.validation("cursor", INVALID);
  }
  return { offset: o, limit, fingerprint };
}

/** The page's metadata: a next cursor only when more results follow (and are within reach). */
export function pageInfo(page: Page, total: number): { total_results: number; limit: number; next_cursor: string | null } {
  const next = page.offset + page.limit;
  return {
    total_results: total,
    limit: page.limit,
    next_cursor: next < total && next <= MAX_OFFSET ? encodeCursor(next, page.fingerprint) : null,
  };
}
