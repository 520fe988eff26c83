import type { Queryable } from "@apiplat/storage";
import type { SqlFilter } from "./sql.js";

export interface FacetCount {
  value: string;
  count: number;
}

/**
 * How many matching rows fall under each value of a column, most frequent first (the counts a search page shows
 * beside its filters). `from` is the FROM clause (a table or a join); `filter` the request's conditions.
 */
export async function facetCounts(
  db: Queryable,
  options: { from: string; filter: SqlFilter; column: string; limit?: number },
): Promise<FacetCount[]> {
  const { rows } = await db.query<FacetCount>(
    `SELECT ${options.column} AS value, count(*)::int AS count FROM ${options.from} ${options.filter.sql}
     ${options.filter.sql ? "AND" : "WHERE"} ${options.column} IS NOT NULL
     GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${Math.trunc(options.limit ?? 20)}`,
    options.filter.params,
  );
  return rows;
}
