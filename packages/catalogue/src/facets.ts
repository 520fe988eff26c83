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

/**
 * Several facets' counts in one pass over the matching rows (GROUPING SETS), instead of one query per facet: each
 * facet's values most frequent first, at most its `limit`. Keys are the facet names, columns what they count.
 */
export async function facetCountsOf<Name extends string>(
  db: Queryable,
  options: { from: string; filter: SqlFilter; facets: Record<Name, { column: string; limit: number }> },
): Promise<Record<Name, FacetCount[]>> {
  const names = Object.keys(options.facets) as Name[];
  const columns = names.map((name) => options.facets[name].column);
  // In a grouping set's rows the columns it does not group by are NULL, and GROUPING(column) is 1.
  const facetOf = `CASE ${columns.map((column, i) => `WHEN GROUPING(${column}) = 0 THEN ${i}`).join(" ")} END`;
  const { rows } = await db.query<{ facet: number; value: string | null; count: number }>(
    `SELECT ${facetOf} AS facet, coalesce(${columns.map((column) => `${column}::text`).join(", ")}) AS value, count(*)::int AS count
     FROM ${options.from} ${options.filter.sql}
     GROUP BY GROUPING SETS (${columns.map((column) => `(${column})`).join(", ")})
     ORDER BY 1, 3 DESC, 2`,
    options.filter.params,
  );
  const result = Object.fromEntries(names.map((name) => [name, [] as FacetCount[]])) as Record<Name, FacetCount[]>;
  for (const row of rows) {
    const counts = result[names[row.facet]];
    if (row.value !== null && counts.length < options.facets[names[row.facet]].limit) counts.push({ value: row.value, count: row.count });
  }
  return result;
}
