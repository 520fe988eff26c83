import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { pageInfo, pageOf, prepareTextQuery, splitList } from "@apiplat/catalogue";
import { errors, ok, successSchema } from "@apiplat/service-kit";
import type { Queryable } from "@apiplat/storage";
import { normalizeAsin, ratingBreakdown } from "../domain/products.js";
import * as S from "../schemas.js";
import { findProduct } from "../store/products.js";
import { searchReviews, type ReviewCatalogue } from "../store/review-catalogue.js";
import { ratingCounts } from "../store/reviews.js";
import { reviewView } from "./views.js";

export interface ReviewRoutesOptions {
  db: Queryable;
  catalogue: ReviewCatalogue;
}

export const reviewRoutes: FastifyPluginAsyncTypebox<ReviewRoutesOptions> = async (app, { db, catalogue }) => {
  app.get(
    "/reviews/:asin",
    {
      schema: {
        summary: "Reviews of a product",
        description:
          "The product's reviews with rating, title, text, author, date and helpful votes, filtered by rating, verified purchase and words, sorted by recency, helpfulness or rating, with a summary (count, average, breakdown) of all its reviews.",
        params: S.AsinParams,
        querystring: S.ReviewsQuery,
        response: { 200: successSchema(S.ReviewPage) },
      },
    },
    async (request) => {
      const asin = normalizeAsin(request.params.asin)!;
      const query = request.query;
      if (query.q !== undefined && query.q.trim() === "") throw errors.validation("q", "must contain at least one word");
      const page = pageOf({ ...query, asin });
      const product = await findProduct(db, asin);
      if (!product) throw errors.notFound(`No product has the ASIN ${asin} in the catalogue; ASINs come from /search.`);
      const text = query.q === undefined ? undefined : await prepareTextQuery(db, query.q);
      const ratings = query.rating === undefined ? undefined : [...new Set(splitList(query.rating).map(Number))];
      const { total, reviews } = await searchReviews(catalogue, asin, { ratings, verifiedOnly: query.verified_only, text }, query.sort ?? "recent", page);
      const { rated, unrated } = await ratingCounts(db, asin);
      const ratedCount = [...rated.values()].reduce((sum, n) => sum + n, 0);
      return ok({
        asin,
        ...pageInfo(page, total),
        corrected_query: text?.corrected ?? null,
        // One rating per product, the one /product gives; the counts and breakdown are of the reviews the dataset holds.
        summary: {
          average_rating: product.rating,
          ratings_count: product.ratings_count,
          rating_basis: product.rating_basis,
          review_count: ratedCount + unrated,
          rated_count: ratedCount,
          rating_breakdown: ratedCount > 0 ? ratingBreakdown(rated) : null,
        },
        reviews: reviews.map(reviewView),
      });
    },
  );
};
