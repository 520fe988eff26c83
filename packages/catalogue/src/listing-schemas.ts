/**
 * The TypeBox pieces a catalogue listing's schemas share: its paging parameters, the paging fields of its answer (as
 * `pageInfo` writes them), its sort parameter and its facets' counts. Spread the field sets into a `Type.Object`.
 */
import { Type } from "typebox";
import { CursorQuery, LimitQuery } from "./pagination.js";

/** `limit` and `cursor`, last in a listing's query: `Type.Object({ q, ..., ...pageQueryFields })`. */
export const pageQueryFields = { limit: Type.Optional(LimitQuery), cursor: Type.Optional(CursorQuery) };

/** `total_results`, `limit` and `next_cursor`, first in a listing's answer (after what names the listed thing). */
export const pageInfoFields = {
  total_results: Type.Integer(),
  limit: Type.Integer(),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
};

/** An optional `sort` (or `sort_by`) among the store's sort names; `description` says which is the default. */
export function sortQuery<const Sorts extends readonly string[]>(sorts: Sorts, description: string) {
  return Type.Optional(
    Type.Union(
      sorts.map((sort) => Type.Literal(sort)),
      { description },
    ),
  );
}

/** A facet's counts, `[{ value, count }]` (`FacetCount`). */
export const FacetCounts = Type.Array(Type.Object({ value: Type.String(), count: Type.Integer() }));
