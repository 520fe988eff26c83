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

interface FacetQuery<Name extends string> {
  from: string;
  filter: SqlFilter;
  facets: Record<Name, { column: string; limit: number }>;
}

/**
 * Several facets' counts in one pass over the matching rows (GROUPING SETS), instead of one query per facet: each
 * facet's values most frequent first, at most its `limit`. Keys are the facet names, columns what they count.
 */
export async function facetCountsOf<Name extends string>(db: Queryable, query: FacetQuery<Name>): Promise<Record<Name, FacetCount[]>> {
  return (await countFacets(db, query, false)).facets;
}

/** The same, and the number of matching rows from the same pass (the empty grouping set). */
export async function facetCountsWithTotal<Name extends string>(db: Queryable, query: FacetQuery<Name>): Promise<{ total: number; facets: Record<Name, FacetCount[]> }> {
  return countFacets(db, query, true);
}

async function countFacets<Name extends string>(db: Queryable, query: FacetQuery<Name>, withTotal: boolean): Promise<{ total: number; facets: Record<Name, FacetCount[]> }> {
  const names = Object.keys(query.facets) as Name[];
  const columns = names.map((name) => query.facets[name].column);
  // In a grouping set's rows the columns it does not group by are NULL, and GROUPING(column) is 1; the empty set's
  // row (the total) has no facet.
  const facetOf = `CASE ${columns.map((column, i) => `WHEN GROUPING(${column}) = 0 THEN ${i}`).join(" ")} ELSE -1 END`;
  const sets = [...columns.map((column) => `(${column})`), ...(withTotal ? ["()"] : [])];
  const { rows } = await db.query<{ facet: number; value: string | null; count: number }>(
    `SELECT ${facetOf} AS facet, coalesce(${columns.map((column) => `${column}::text`).join(", ")}) AS value, count(*)::int AS count
     FROM ${query.from} ${query.filter.sql}
     GROUP BY GROUPING SETS (${sets.join(", ")})
     ORDER BY 1, 3 DESC, 2`,
    query.filter.params,
  );
  const facets = Object.fromEntries(names.map((name) => [name, [] as FacetCount[]])) as Record<Name, FacetCount[]>;
  let total = 0;
  for (const row of rows) {
    if (row.facet === -1) {
      total = row.count;
      continue;
    }
    const counts = facets[names[row.facet]];
    if (row.value !== null && counts.length < query.facets[names[row.facet]].limit) counts.push({ value: row.value, count: row.count });
  }
  return { total, facets };
}
