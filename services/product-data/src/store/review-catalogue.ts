/**
 * The reviews held in memory (see @apiplat/catalogue's memoryCatalogue), the one engine of /reviews: every review's
 * fields and its weighted tsvector, grouped by product, read again after each ingestion run (5,003 reviews). The
 * database is the store of record the snapshot is read from, and compiles `q`.
 *
 * Every order ends with the newest first, then the review's place in its file, then its id (byte order), so pages
 * never overlap; reviews without the sorted value (votes, a score) come last. `q` only filters: no rank.
 */
import { byteOrder, memoryCatalogue, tsquerySql, type MemoryCatalogue, type Page, type TextQuery } from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import { REVIEW_COLUMNS, type ReviewRecord, type ReviewSort } from "./reviews.js";

export type ReviewCatalogue = MemoryCatalogue<ReviewRecord>;

interface ReviewFilters {
  ratings?: number[];
  verifiedOnly?: boolean;
  text?: TextQuery;
}

export function reviewCatalogue(db: Queryable): ReviewCatalogue {
  return memoryCatalogue(db, async (db) => {
    const { rows } = await db.query<ReviewRecord & { vector: string | null }>(`SELECT ${REVIEW_COLUMNS}, document::text AS vector FROM reviews`);
    const reviews = rows.map(({ vector: _vector, ...review }) => review);
    ordinalsByProduct(reviews);
    return { rows: reviews, vectors: { document: rows.map((row) => row.vector) } };
  });
}

/** A product's reviews the filters keep, sorted and paged. */
export async function searchReviews(
  catalogue: ReviewCatalogue,
  asin: string,
  filters: ReviewFilters,
  sort: ReviewSort,
  page: Page,
): Promise<{ total: number; reviews: ReviewRecord[] }> {
  const { text } = filters;
  const { snapshot, tsqueries } = text
    ? await catalogue.compile((filter) => ({ document: tsquerySql(filter, text, "english") }))
    : { snapshot: await catalogue.current(), tsqueries: null };
  const { rows } = snapshot;
  const matching = tsqueries ? new Set(snapshot.indexes.document.documentsMatching(tsqueries.document)) : null;
  const ratings = filters.ratings?.length ? new Set(filters.ratings) : null;
  const kept = (ordinalsByProduct(rows).get(asin) ?? [])
    .filter(
      (at) =>
        (matching === null || matching.has(at)) &&
        (ratings === null || (rows[at].rating !== null && ratings.has(rows[at].rating!))) &&
        (!filters.verifiedOnly || rows[at].verified_purchase === true),
    )
    .map((at) => rows[at])
    .sort(ORDERS[sort]);
  return { total: kept.length, reviews: kept.slice(page.offset, page.offset + page.limit) };
}

const ordinalsByRows = new WeakMap<readonly ReviewRecord[], Map<string, number[]>>();

/** Each product's reviews, as ordinals of the snapshot's rows, grouped once per snapshot. */
function ordinalsByProduct(rows: readonly ReviewRecord[]): Map<string, number[]> {
  let byProduct = ordinalsByRows.get(rows);
  if (!byProduct) {
    byProduct = new Map();
    rows.forEach((review, at) => {
      const ordinals = byProduct!.get(review.asin);
      if (ordinals) ordinals.push(at);
      else byProduct!.set(review.asin, [at]);
    });
    ordinalsByRows.set(rows, byProduct);
  }
  return byProduct;
}

/** `x DESC NULLS LAST`, or ascending with `direction` -1 (NULLs still last). */
function nullsLast(a: number | null, b: number | null, direction: 1 | -1 = 1): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return direction * (b - a);
}

/** `reviewed_on DESC, revision, id` (the day as YYYY-MM-DD, which orders as the date does). */
function newestFirst(a: ReviewRecord, b: ReviewRecord): number {
  if (a.reviewed_on !== b.reviewed_on) return a.reviewed_on < b.reviewed_on ? 1 : -1;
  return a.revision - b.revision || byteOrder(a.id, b.id);
}

const ORDERS: Record<ReviewSort, (a: ReviewRecord, b: ReviewRecord) => number> = {
  recent: newestFirst,
  helpful: (a, b) => nullsLast(a.helpful_votes, b.helpful_votes) || newestFirst(a, b),
  rating: (a, b) => nullsLast(a.rating, b.rating) || newestFirst(a, b),
  rating_asc: (a, b) => nullsLast(a.rating, b.rating, -1) || newestFirst(a, b),
};
