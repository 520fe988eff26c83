import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { pageInfo, pageOf, prepareTextQuery, splitList } from "@apiplat/catalogue";
import { errors, ok, successSchema } from "@apiplat/service-kit";
import type { Queryable } from "@apiplat/storage";
import { categoryId, isLocale, LOCALES, normalizeAsin } from "../domain/products.js";
import * as S from "../schemas.js";
import { findProduct, productFacets, searchProducts, unknownCategories, type ProductFilters } from "../store/products.js";
import { ratingCounts } from "../store/reviews.js";
import { productDetailView, productView } from "./view.js";

export interface ProductRoutesOptions {
  db: Queryable;
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

async function categoriesOf(db: Queryable, text: string | undefined): Promise<string[] | undefined> {
  if (text === undefined) return undefined;
  const ids = [...new Set(splitList(text).map(categoryId))];
  if (ids.length === 0) throw errors.validation("category", "must name at least one category id");
  const { unknown, known } = await unknownCategories(db, ids);
  if (unknown.length > 0) throw errors.validation("category", `has no product in ${unknown.join(", ")}; the categories are ${known.join(", ")}`);
  return ids;
}

export const productRoutes: FastifyPluginAsyncTypebox<ProductRoutesOptions> = async (app, { db }) => {
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
      if (query.sort === "relevance" && query.q === undefined) throw errors.validation("sort", "relevance needs q; use best_sellers, price_asc, price_desc, rating or reviews");
      const page = pageOf(query);
      const filters: ProductFilters = {
        text: query.q === undefined ? undefined : await prepareTextQuery(db, query.q),
        locales: localesOf(query.locale),
        categories: await categoriesOf(db, query.category),
        minPrice: query.min_price,
        maxPrice: query.max_price,
        minRating: query.min_rating,
        isBestSeller: query.is_best_seller,
      };
      const sort = query.sort ?? (filters.text ? "relevance" : "best_sellers");
      const { total, products } = await searchProducts(db, filters, sort, page);
      return ok({
        ...pageInfo(page, total),
        corrected_query: filters.text?.corrected ?? null,
        products: products.map(productView),
        ...(query.facets ? { facets: await productFacets(db, filters) } : {}),
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
