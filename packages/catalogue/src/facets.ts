import type { Queryable } from "@apiplat/storage";
import type { SqlFilter } from "./sql.js";

export interface FacetCount {
  value: string;
  count: number;
}

/**
 * How many matching rows fall under each value of several columns (the counts a search page shows beside its
 * filters), in one pass over the matches (GROUPING SETS) rather than one query per facet: each facet's values most
 * frequent first, then by value, at most its `limit`. `from` is the FROM clause (a table or a join); `filter` the
 * request's conditions; the keys name the facets, `column` says what each counts.
 */
export async function facetCountsOf<Name extends string>(
  db: Queryable,
  query: { from: string; filter: SqlFilter; facets: Record<Name, { column: string; limit: number }> },
): Promise<Record<Name, FacetCount[]>> {
  const names = Object.keys(query.facets) as Name[];
  const columns = names.map((name) => query.facets[name].column);
  // In a grouping set's rows the columns it does not group by are NULL, and GROUPING(column) is 1.
  const facetOf = `CASE ${columns.map((column, i) => `WHEN GROUPING(${column}) = 0 THEN ${i}`).join(" ")} END`;
  const { rows } = await db.query<{ facet: number; value: string | null; count: number }>(
    `SELECT ${facetOf} AS facet, coalesce(${columns.map((column) => `${column}::text`).join(", ")}) AS value, count(*)::int AS count
     FROM ${query.from} ${query.filter.sql}
     GROUP BY GROUPING SETS (${columns.map((column) => `(${column})`).join(", ")})
     ORDER BY 1, 3 DESC, 2`,
    query.filter.params,
  );
  const facets = Object.fromEntries(names.map((name) => [name, [] as FacetCount[]])) as Record<Name, FacetCount[]>;
  for (const row of rows) {
    const counts = facets[names[row.facet]];
    if (row.value !== null && counts.length < query.facets[names[row.facet]].limit) counts.push({ value: row.value, count: row.count });
  }
  return facets;
}
