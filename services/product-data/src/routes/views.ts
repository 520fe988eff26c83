import { discountOf, isLocale, MARKETPLACES, ratingBreakdown } from "../domain/products.js";
import type * as S from "../schemas.js";
import type { ProductRecord } from "../store/products.js";
import type { ReviewRecord } from "../store/reviews.js";

const money = (value: number | null, currency: string | null) => (value === null || currency === null ? null : { value, currency });

/** A catalogue row as the API shows it: prices with their currency, the category path, what the data lacks null. */
export function productView(row: ProductRecord): S.Product {
  const discount = discountOf(row.price, row.list_price);
  return {
    asin: row.asin,
    locale: row.locale,
    marketplace: isLocale(row.locale) ? MARKETPLACES[row.locale].marketplace : row.locale,
    title: row.title,
    brand: row.brand,
    image_url: row.image_url,
    images: row.image_url ? [row.image_url] : [],
    product_url: row.product_url,
    price: money(row.price, row.currency),
    list_price: money(row.list_price, row.currency),
    discount: discount && row.currency ? { ...discount, currency: row.currency } : null,
    rating: row.rating,
    ratings_count: row.ratings_count,
    rating_basis: row.rating_basis,
    categories: row.category_id && row.category_name ? [{ id: row.category_id, name: row.category_name }] : [],
    is_best_seller: row.is_best_seller,
    bought_last_month: row.bought_last_month,
    review_count: row.review_count,
    data_as_of: row.data_as_of,
    dataset: row.dataset,
  };
}

export function productDetailView(row: ProductRecord, rated: ReadonlyMap<number, number>): S.ProductDetail {
  return { ...productView(row), rating_breakdown: rated.size > 0 ? ratingBreakdown(rated) : null };
}

export function reviewView(row: ReviewRecord): S.Review {
  return {
    id: row.id,
    asin: row.asin,
    locale: row.locale,
    rating: row.rating,
    title: row.title,
    text: row.body,
    author: row.author,
    author_id: row.author_id,
    date: row.reviewed_on,
    helpful_votes: row.helpful_votes,
    total_votes: row.total_votes,
    verified_purchase: row.verified_purchase,
  };
}
