/**
 * The time bound of a text search answered by the database (a catalogue searched in SQL only: a product's reviews;
 * every other search is answered in memory): its statements run under a `statement_timeout`, set for the
 * search's own transaction only, so nothing else the connection runs (ingestion, migrations) is cut short.
 *
 * A search past it answers 503 with Retry-After. Unlike the query bounds (a 400: the same query is always too broad),
 * a statement's time depends on what else the database is doing, so the same search may well succeed on a retry; and
 * as a 5xx of the platform it is not billed.
 */
import { ApiError } from "@apiplat/service-kit";
import type { Database, Queryable } from "@apiplat/storage";

export const SEARCH_STATEMENT_TIMEOUT_MS = 1000;

/** PostgreSQL's query_canceled, which a statement_timeout raises. */
const QUERY_CANCELED = "57014";

export async function withSearchTimeout<T>(db: Queryable, search: (db: Queryable) => Promise<T>, timeoutMs = SEARCH_STATEMENT_TIMEOUT_MS): Promise<T> {
  if (!isDatabase(db)) return search(db);
  try {
    return await db.transaction(async (tx) => {
      await tx.query(`SET LOCAL statement_timeout = ${Math.round(timeoutMs)}`);
      return search(tx);
    });
  } catch (error) {
    if ((error as { code?: string }).code !== QUERY_CANCELED) throw error;
    throw new ApiError(
      503,
      "UNAVAILABLE",
      `The search ran past its time limit of ${timeoutMs} ms in the database; retry in a moment, or narrow the query.`,
      undefined,
      { "retry-after": "1" },
    );
  }
}

function isDatabase(db: Queryable): db is Database {
  return typeof (db as Partial<Database>).transaction === "function";
}
