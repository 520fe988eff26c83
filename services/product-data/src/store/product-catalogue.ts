/**
 * The products held in memory for /search (see @apiplat/catalogue's memoryCatalogue): every product's fields and its
 * weighted tsvector, read again after each ingestion run. 7,730 products take about 21 MB of heap.
 */
import {
  memoryCatalogue,
  RANK_NORMALIZATION,
  tsquerySql,
  withSearchTimeout,
  type MemoryCatalogue,
  type Page,
  type TextMatches,
  type TextQuery,
} from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import { searchRows, type ProductSearchResult } from "../domain/product-search.js";
import { PRODUCT_COLUMNS, productFacets, searchProducts, type ProductFilters, type ProductRecord, type ProductSort } from "./products.js";

export type ProductCatalogue = MemoryCatalogue<ProductRecord>;

export function productCatalogue(db: Queryable): ProductCatalogue {
  return memoryCatalogue(db, async (db) => {
    const { rows } = await db.query<ProductRecord & { vector: string | null }>(`SELECT ${PRODUCT_COLUMNS}, document::text AS vector FROM products`);
    const shared = new Map<string | null, string | null>();
    const share = (text: string | null) => (shared.has(text) ? shared.get(text)! : (shared.set(text, text), text));
    return { rows: rows.map((row) => heldRecord(row, share)), vectors: { document: rows.map((row) => row.vector) } };
  });
}

/**
 * A row as held for searching: every record built by the same literal, so that the search's loops read their fields
 * through one hidden class (the driver's rows, of varied field types, made those reads several times slower), and the
 * few distinct locales and categories as one string each, so that counting them compares pointers.
 */
function heldRecord(row: ProductRecord, share: (text: string | null) => string | null): ProductRecord {
  return {
    asin: row.asin,
    locale: share(row.locale)!,
    dataset: share(row.dataset)!,
    title: row.title,
    brand: row.brand,
    image_url: row.image_url,
    product_url: row.product_url,
    currency: share(row.currency),
    price: row.price,
    list_price: row.list_price,
    rating: row.rating,
    ratings_count: row.ratings_count,
    rating_basis: share(row.rating_basis)!,
    category_id: share(row.category_id),
    category_name: share(row.category_name),
    is_best_seller: row.is_best_seller,
    bought_last_month: row.bought_last_month,
    review_count: row.review_count,
    data_as_of: share(row.data_as_of),
  };
}

/** A search's view of the catalogue: the current products and, for a text search, its matches. */
export interface OpenSearch {
  rows: readonly ProductRecord[];
  /** The text search's matches and ranks; null for a listing (every product). */
  matches: TextMatches | null;
  /** The TextIndex left the query to the database (a weight restriction, which websearch syntax cannot write). */
  inDatabase: boolean;
}

/**
 * The current snapshot and the query matched in it: one round trip (the tsquery compiled by the database, and the
 * catalogue's version). A listing asks only the version.
 */
export async function openSearch(catalogue: ProductCatalogue, text: TextQuery | undefined): Promise<OpenSearch> {
  if (!text) return { rows: (await catalogue.current()).rows, matches: null, inDatabase: false };
  const { snapshot, tsqueries } = await catalogue.compile((filter) => ({ document: tsquerySql(filter, text, "english") }));
  const matches = snapshot.indexes.document.search(tsqueries.document, RANK_NORMALIZATION);
  return { rows: snapshot.rows, matches, inDatabase: matches === null };
}

/** /search from the products in memory; a query the TextIndex leaves to the database is answered by the SQL search. */
export async function findProducts(
  db: Queryable,
  search: OpenSearch,
  filters: ProductFilters,
  sort: ProductSort,
  page: Page,
  withFacets: boolean,
): Promise<ProductSearchResult> {
  if (!search.inDatabase) {
    const { text: _text, ...rest } = filters;
    return searchRows(search.rows, search.matches, rest, sort, page, withFacets);
  }
  const found = filters.text ? await withSearchTimeout(db, (db) => searchProducts(db, filters, sort, page)) : await searchProducts(db, filters, sort, page);
  return withFacets ? { ...found, facets: await productFacets(db, filters) } : found;
}
