import type { Database, Queryable } from "@apiplat/storage";
import type { ReviewRow } from "../domain/products.js";

/** A review as listings and views read it: the row ingestion writes (domain's ReviewRow) but its dataset. */
export type ReviewRecord = Omit<ReviewRow, "dataset">;

export const REVIEW_SORTS = ["recent", "helpful", "rating", "rating_asc"] as const;
export type ReviewSort = (typeof REVIEW_SORTS)[number];

export const REVIEW_COLUMNS = `id, asin, locale, rating, title, body, author, author_id, to_char(reviewed_on, 'YYYY-MM-DD') AS reviewed_on,
  helpful_votes, total_votes, verified_purchase, revision`;

/** How many reviews of the product have each rating; `null` counts the reviews without one. */
export async function ratingCounts(db: Queryable, asin: string): Promise<{ rated: Map<number, number>; unrated: number }> {
  const { rows } = await db.query<{ rating: number | null; n: number }>("SELECT rating, count(*)::int AS n FROM reviews WHERE asin = $1 GROUP BY rating", [
    asin,
  ]);
  const rated = new Map<number, number>();
  let unrated = 0;
  for (const row of rows) {
    if (row.rating === null) unrated = row.n;
    else rated.set(row.rating, row.n);
  }
  return { rated, unrated };
}

/**
 * After a load: products known only from reviews are created (locale and dataset of their reviews, nothing else),
 * and every reviewed product gets its review count and titles (searched as part of the product); a product whose
 * rating comes from the reviews (no marketplace rating in the data) gets their mean and count, as of its newest review.
 */
export async function refreshReviewAggregates(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO products (asin, locale, dataset, rating_basis, revision)
       SELECT DISTINCT ON (asin) asin, locale, dataset, 'reviews', 0 FROM reviews ORDER BY asin, revision
       ON CONFLICT (asin) DO NOTHING`,
    );
    await tx.query(
      `WITH aggregate AS (
         SELECT asin, count(*)::int AS review_count, count(rating)::int AS rated, round(avg(rating), 2) AS average,
           string_agg(title, ' ' ORDER BY revision) AS titles, to_char(max(reviewed_on), 'YYYY-MM-DD') AS newest
         FROM reviews GROUP BY asin
       ), wanted AS (
         SELECT p.asin, a.review_count, a.titles,
           CASE WHEN p.rating_basis = 'reviews' THEN a.average ELSE p.rating END AS rating,
           CASE WHEN p.rating_basis = 'reviews' THEN a.rated ELSE p.ratings_count END AS ratings_count,
           CASE WHEN p.rating_basis = 'reviews' THEN a.newest ELSE p.data_as_of END AS data_as_of
         FROM products p JOIN aggregate a USING (asin)
       )
       UPDATE products p SET review_count = w.review_count, review_titles = w.titles, rating = w.rating, ratings_count = w.ratings_count,
         data_as_of = w.data_as_of
       FROM wanted w
       WHERE p.asin = w.asin
         AND (p.review_count, p.review_titles, p.rating, p.ratings_count, p.data_as_of)
           IS DISTINCT FROM (w.review_count, w.titles, w.rating, w.ratings_count, w.data_as_of)`,
    );
  });
}
