import type { MemoryCatalogue } from "./memory-catalogue.js";
import { RANK_NORMALIZATION, tsquerySql, type TextQuery } from "./search.js";
import type { TextMatches } from "./text-index.js";

/**
 * A text search of one of the catalogue's indexes: the query turned into a tsquery by the database (in the round trip
 * that reads the version), then matched and ranked in memory. `matches.docs` are ordinals of `rows`, the snapshot's.
 */
export async function rankedSearch<Row>(
  catalogue: MemoryCatalogue<Row>,
  index: string,
  query: TextQuery,
  config: string,
): Promise<{ rows: readonly Row[]; matches: TextMatches }> {
  const { snapshot, tsqueries } = await catalogue.compile((filter) => ({ query: tsquerySql(filter, query, config) }));
  return { rows: snapshot.rows, matches: snapshot.indexes[index].search(tsqueries.query, RANK_NORMALIZATION) };
}
