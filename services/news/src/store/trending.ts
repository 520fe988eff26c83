import { SqlFilter } from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import type { TermCounts } from "../domain/trending.js";

interface TrendScope {
  country?: string;
  category?: string;
}

function scopeFilter(scope: TrendScope): SqlFilter {
  return new SqlFilter().equals("country", scope.country?.toLowerCase()).equals("category", scope.category?.toLowerCase());
}

/** The newest publication time among the articles in scope: trending windows end there (the data is historical). */
export async function newestPublished(db: Queryable, scope: TrendScope): Promise<Date | null> {
  const filter = scopeFilter(scope);
  const { rows } = await db.query<{ newest: Date | null }>(`SELECT max(published_at) AS newest FROM articles ${filter.sql}`, filter.params);
  return rows[0].newest;
}

/** Headline counts of the two windows, (start, middle] being the previous one and (middle, end] the current. */
export async function windowTotals(db: Queryable, scope: TrendScope, start: Date, middle: Date, end: Date): Promise<{ current: number; previous: number }> {
  const filter = scopeFilter(scope);
  filter.where((p) => `published_at > ${p(start)} AND published_at <= ${p(end)}`);
  const m = filter.param(middle);
  const { rows } = await db.query<{ current: number; previous: number }>(
    `SELECT count(*) FILTER (WHERE published_at > ${m})::int AS current, count(*) FILTER (WHERE published_at <= ${m})::int AS previous
     FROM articles ${filter.sql}`,
    filter.params,
  );
  return rows[0];
}

/** For every title word (english stems) of the current window: headlines mentioning it now and in the previous window. */
export async function termCounts(db: Queryable, scope: TrendScope, start: Date, middle: Date, end: Date, minCount: number): Promise<TermCounts[]> {
  const filter = scopeFilter(scope);
  filter.where((p) => `published_at > ${p(start)} AND published_at <= ${p(end)}`);
  const m = filter.param(middle);
  const min = filter.param(minCount);
  const { rows } = await db.query<TermCounts>(
    `SELECT lexeme, count(*) FILTER (WHERE published_at > ${m})::int AS count,
            count(*) FILTER (WHERE published_at <= ${m})::int AS previous_count
     FROM articles, unnest(tsvector_to_array(to_tsvector('english', title))) AS lexeme
     ${filter.sql} AND length(lexeme) >= 3 AND lexeme ~ '^[a-z]'
     GROUP BY lexeme HAVING count(*) FILTER (WHERE published_at > ${m}) >= ${min}`,
    filter.params,
  );
  return rows;
}

export interface Headline {
  title: string;
  url: string | null;
  source_name: string;
  published_at: Date;
}

/** The window's headlines that contain a stem, newest first. */
export async function headlinesWith(db: Queryable, scope: TrendScope, lexeme: string, from: Date, to: Date, limit: number): Promise<Headline[]> {
  const filter = scopeFilter(scope);
  filter.where((p) => `published_at > ${p(from)} AND published_at <= ${p(to)}`);
  filter.where((p) => `to_tsvector('english', title) @@ plainto_tsquery('simple', ${p(lexeme)})`);
  const { rows } = await db.query<Headline>(
    `SELECT title, url, source_name, published_at FROM articles ${filter.sql} ORDER BY published_at DESC, id LIMIT ${filter.param(limit)}`,
    filter.params,
  );
  return rows;
}
