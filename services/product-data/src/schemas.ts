import { pageInfoFields, pageQueryFields, sortQuery } from "@apiplat/catalogue";
import { Type, type Static } from "typebox";
import { ASIN_FORMAT, LOCALES, PRICE_BANDS } from "./domain/products.js";
import { PRODUCT_SORTS } from "./store/products.js";
import { REVIEW_SORTS } from "./store/reviews.js";

const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableNumber = Type.Union([Type.Number(), Type.Null()]);
const NullableInteger = Type.Union([Type.Integer(), Type.Null()]);
const NullableBoolean = Type.Union([Type.Boolean(), Type.Null()]);
const Price = Type.Number({ minimum: 0, maximum: 1_000_000, description: "in the product's own currency (CAD on amazon.ca)" });

export const SearchQuery = Type.Object({
  q: Type.Optional(
    Type.String({
      maxLength: 200,
      description:
        'words of the title (or, for products known only from reviews, of their review titles); typos are corrected, "quoted phrases", -exclusion, OR and prefix* work',
    }),
  ),
  locale: Type.Optional(Type.String({ maxLength: 20, description: `comma-separated marketplaces by country code: ${LOCALES.join(", ")} (case-insensitive)` })),
  category: Type.Optional(
    Type.String({ maxLength: 300, description: "comma-separated category ids (or names): industrial-scientific, motorcycle-accessories-parts" }),
  ),
  min_price: Type.Optional(Price),
  max_price: Type.Optional(Price),
  min_rating: Type.Optional(Type.Number({ minimum: 0, maximum: 5, description: "at least this average rating, 0 to 5" })),
  is_best_seller: Type.Optional(Type.Boolean({ description: "true: only products flagged best sellers; false: only products known not to be" })),
  sort: sortQuery(PRODUCT_SORTS, "relevance (default with q; needs q), best_sellers (default otherwise), price_asc, price_desc, rating, reviews"),
  facets: Type.Optional(Type.Boolean({ description: "add counts by category and by price band" })),
  ...pageQueryFields,
});
export type SearchQuery = Static<typeof SearchQuery>;

const Money = Type.Object({ value: Type.Number(), currency: Type.String({ description: "ISO 4217" }) });
const StarCount = Type.Object({ count: Type.Integer(), percent: Type.Integer({ description: "whole percent of the rated reviews" }) });
export const RatingBreakdown = Type.Object({
  five_star: StarCount,
  four_star: StarCount,
  three_star: StarCount,
  two_star: StarCount,
  one_star: StarCount,
});

export const Product = Type.Object({
  asin: Type.String(),
  locale: Type.String({ description: "the marketplace's country code: CA (amazon.ca), US (amazon.com)" }),
  marketplace: Type.String({ description: "amazon.ca, amazon.com" }),
  title: Type.Union([Type.String(), Type.Null()], {
    description:
      "the listing's title; null for Fine Food products, whose source (SNAP's reviews) names no product. Untitled products come after titled ones in every sort",
  }),
  brand: NullableString,
  image_url: NullableString,
  images: Type.Array(Type.String()),
  product_url: NullableString,
  price: Type.Union([Money, Type.Null()]),
  list_price: Type.Union([Money, Type.Null()], { description: "the struck-through price, when the listing shows one" }),
  discount: Type.Union([Type.Object({ amount: Type.Number(), percent: Type.Integer(), currency: Type.String() }), Type.Null()]),
  rating: Type.Union([Type.Number(), Type.Null()], { description: "average stars, 1 to 5" }),
  ratings_count: NullableInteger,
  rating_basis: Type.String({ description: "marketplace (the listing's own rating and count) or reviews (computed from the reviews in the dataset)" }),
  categories: Type.Array(Type.Object({ id: Type.String(), name: Type.String() }), { description: "the category path, broadest first" }),
  is_best_seller: NullableBoolean,
  bought_last_month: Type.Union([Type.Integer(), Type.Null()], { description: 'Amazon\'s "N+ bought in past month" (0: not shown)' }),
  review_count: Type.Integer({ description: "reviews with text in the dataset (GET /reviews/{asin})" }),
  data_as_of: Type.Union([Type.String(), Type.Null()], {
    description:
      'how old the price and rating are: "2023" for amazon.ca (Kaggle\'s "Amazon Canada Products 2023" records the year, not the day); a Fine Food product\'s newest review (YYYY-MM-DD)',
  }),
  dataset: Type.String(),
});
export type Product = Static<typeof Product>;

export const ProductDetail = Type.Intersect([
  Product,
  Type.Object({
    rating_breakdown: Type.Union([RatingBreakdown, Type.Null()], { description: "counts of the rated reviews in the dataset; null without any" }),
  }),
]);
export type ProductDetail = Static<typeof ProductDetail>;

export const ProductPage = Type.Object({
  ...pageInfoFields,
  corrected_query: Type.Union([Type.String(), Type.Null()], { description: "the query as searched when a word was corrected" }),
  products: Type.Array(Product),
  facets: Type.Optional(
    Type.Object({
      category: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), count: Type.Integer() })),
      price_band: Type.Array(Type.Object({ id: Type.String(), min: Type.Number(), max: NullableNumber, count: Type.Integer() }), {
        description: `products with a price in each band [min, max), in their own currency: ${PRICE_BANDS.map((b) => b.id).join(", ")}`,
      }),
    }),
  ),
});

export const AsinParams = Type.Object({
  asin: Type.String({ pattern: "^[A-Za-z0-9]{10}$", description: "the product's ASIN: 10 characters, letters and digits", errorMessage: ASIN_FORMAT }),
});

export const ReviewsQuery = Type.Object({
  rating: Type.Optional(
    Type.String({
      pattern: "^[1-5](,[1-5])*$",
      description: "comma-separated star ratings, such as 4,5",
      errorMessage: "must be star ratings from 1 to 5, comma-separated, such as 4,5",
    }),
  ),
  verified_only: Type.Optional(Type.Boolean({ description: "only reviews flagged verified purchases (no dataset has the flag: always empty today)" })),
  q: Type.Optional(Type.String({ maxLength: 200, description: "words of the review's title or text" })),
  sort: sortQuery(REVIEW_SORTS, "recent (default), helpful, rating (highest first), rating_asc (lowest first)"),
  ...pageQueryFields,
});
export type ReviewsQuery = Static<typeof ReviewsQuery>;

export const Review = Type.Object({
  id: Type.String(),
  asin: Type.String(),
  locale: Type.String(),
  rating: Type.Union([Type.Integer(), Type.Null()], { description: "1 to 5; null where the dataset gives no score" }),
  title: NullableString,
  text: NullableString,
  author: NullableString,
  author_id: NullableString,
  date: Type.String({ description: "YYYY-MM-DD" }),
  helpful_votes: NullableInteger,
  total_votes: Type.Union([Type.Integer(), Type.Null()], { description: "people who voted on the review's helpfulness" }),
  verified_purchase: NullableBoolean,
});
export type Review = Static<typeof Review>;

export const ReviewPage = Type.Object({
  asin: Type.String(),
  ...pageInfoFields,
  corrected_query: NullableString,
  summary: Type.Object({
    average_rating: Type.Union([Type.Number(), Type.Null()], { description: "the product's rating, as GET /product gives it (see rating_basis)" }),
    ratings_count: NullableInteger,
    rating_basis: Type.String({
      description:
        "where average_rating and ratings_count come from: marketplace (the listing's own stars and count, amazon.ca) or reviews (the mean and number of the dataset's rated reviews, Fine Food)",
    }),
    review_count: Type.Integer({ description: "every review of the product the dataset holds, filters aside (amazon.ca: none, the file has no reviews)" }),
    rated_count: Type.Integer({ description: "those with a rating" }),
    rating_breakdown: Type.Union([RatingBreakdown, Type.Null()], {
      description: "counts of the dataset's rated reviews by stars; null without any (amazon.ca's file has no breakdown)",
    }),
  }),
  reviews: Type.Array(Review),
});
