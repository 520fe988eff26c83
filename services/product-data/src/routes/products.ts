import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { pageInfo, pageOf, splitList } from "@apiplat/catalogue";
import { errors, ok, successSchema } from "@apiplat/service-kit";
import type { Queryable } from "@apiplat/storage";
import { categoryId, isLocale, LOCALES, normalizeAsin } from "../domain/products.js";
import * as S from "../schemas.js";
import { findProducts, openSearch, unknownCategoriesIn, type OpenSearch, type ProductCatalogue, type ProductFilters } from "../store/product-catalogue.js";
import { findProduct } from "../store/products.js";
import { ratingCounts } from "../store/reviews.js";
import { productDetailView, productView } from "./views.js";

export interface ProductRoutesOptions {
  db: Queryable;
  catalogue: ProductCatalogue;
}

function localesOf(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const locales = splitList(text.toUpperCase());
  const unknown = locales.filter((locale) => !isLocale(locale));
  if (locales.length === 0 || unknown.length > 0) {
    throw errors.validation("locale", `must be marketplace country codes the catalogue covers: ${LOCALES.join(", ")} (got "${text}")`);
  }
  return locales;
}

/** The category ids asked for, checked against the products of the search's snapshot (every search with a category does it). */
function categoriesOf(search: OpenSearch, text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const ids = [...new Set(splitList(text).map(categoryId))];
  if (ids.length === 0) throw errors.validation("category", "must name at least one category id");
  const { unknown, known } = unknownCategoriesIn(search.rows, ids);
  if (unknown.length > 0) throw errors.validation("category", `has no product in ${unknown.join(", ")}; the categories are ${known.join(", ")}`);
  return ids;
}

export const productRoutes: FastifyPluginAsyncTypebox<ProductRoutesOptions> = async (app, { db, catalogue }) => {
  app.get(
    "/search",
    {
      schema: {
        summary: "Search products",
        description:
          "Full-text search over product titles (typos corrected from the catalogue's vocabulary), filtered by marketplace, category, price, rating and the best-seller flag, sorted by relevance, price, rating, ratings or best sellers, with facet counts by category and price band.",
        querystring: S.SearchQuery,
        response: { 200: successSchema(S.ProductPage) },
      },
    },
    async (request) => {
      const query = request.query;
      if (query.q !== undefined && query.q.trim() === "") throw errors.validation("q", "must contain at least one word");
      if (query.min_price !== undefined && query.max_price !== undefined && query.min_price > query.max_price) {
        throw errors.validation("max_price", "must be at least min_price");
      }
      if (query.sort === "relevance" && query.q === undefined)
        throw errors.validation("sort", "relevance needs q; use best_sellers, price_asc, price_desc, rating or reviews");
      const page = pageOf(query);
      const text = query.q === undefined ? undefined : await catalogue.prepare(query.q);
      const locales = localesOf(query.locale);
      const search = await openSearch(catalogue, text);
      const filters: ProductFilters = {
        text,
        locales,
        categories: categoriesOf(search, query.category),
        minPrice: query.min_price,
        maxPrice: query.max_price,
        minRating: query.min_rating,
        isBestSeller: query.is_best_seller,
      };
      const sort = query.sort ?? (filters.text ? "relevance" : "best_sellers");
      const { total, products, facets } = findProducts(search, filters, sort, page, query.facets === true);
      return ok({
        ...pageInfo(page, total),
        corrected_query: filters.text?.corrected ?? null,
        products: products.map(productView),
        ...(facets ? { facets } : {}),
      });
    },
  );

  app.get(
    "/product/:asin",
    {
      schema: {
        summary: "One product by ASIN",
        description:
          "Title, brand, images, product URL, price and list price with currency and discount, rating and ratings count, category path, best-seller flag, bought last month, locale, and the rating breakdown of its reviews when the dataset has any.",
        params: S.AsinParams,
        response: { 200: successSchema(S.ProductDetail) },
      },
    },
    async (request) => {
      const asin = normalizeAsin(request.params.asin)!;
      const row = await findProduct(db, asin);
      if (!row) throw errors.notFound(`No product has the ASIN ${asin} in the catalogue; ASINs come from /search.`);
      const { rated } = row.review_count > 0 ? await ratingCounts(db, asin) : { rated: new Map<number, number>() };
      return ok(productDetailView(row, rated));
    },
  );
};
