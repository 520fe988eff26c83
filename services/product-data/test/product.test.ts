import type { StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caProducts, fineFood, fineFoodProducts, getter, startProductData } from "./helpers.js";

let started: StartedService;
let get: ReturnType<typeof getter>;
const ca = caProducts();
const us = fineFoodProducts();

beforeAll(async () => {
  started = await startProductData();
  get = getter(started, (await started.subscribe("PRO")).headers);
}, 120_000);
afterAll(() => started.close());

const stars = (histogram: Map<number, number>, rated: number) => {
  const entry = (n: number) => ({ count: histogram.get(n) ?? 0, percent: Math.round(((histogram.get(n) ?? 0) / rated) * 100) });
  return { five_star: entry(5), four_star: entry(4), three_star: entry(3), two_star: entry(2), one_star: entry(1) };
};

describe("GET /product/{asin} on amazon.ca", () => {
  it("gives every field of the row, with the list price's discount", async () => {
    const row = ca.find((r) => r.isBestSeller === "True" && Number(r.listPrice) > Number(r.price) && Number(r.boughtInLastMonth) > 0)!;
    const [price, listPrice] = [Number(row.price), Number(row.listPrice)];
    const { status, body } = await get(`/product/${row.asin}`);
    expect(status).toBe(200);
    expect(body.data).toEqual({
      asin: row.asin,
      locale: "CA",
      marketplace: "amazon.ca",
      title: row.title,
      brand: null,
      image_url: row.imgUrl,
      images: [row.imgUrl],
      product_url: `https://www.amazon.ca/dp/${row.asin}`,
      price: { value: price, currency: "CAD" },
      list_price: { value: listPrice, currency: "CAD" },
      discount: { amount: Math.round((listPrice - price) * 100) / 100, percent: Math.round(((listPrice - price) / listPrice) * 100), currency: "CAD" },
      rating: Number(row.stars),
      ratings_count: Number(row.reviews),
      rating_basis: "marketplace",
      categories: [
        {
          id: row.categoryName.startsWith("Motorcycle") ? "motorcycle-accessories-parts" : "industrial-scientific",
          name: row.categoryName.replace("  ", " & "),
        },
      ],
      is_best_seller: true,
      bought_last_month: Number(row.boughtInLastMonth),
      review_count: 0,
      data_as_of: "2023",
      dataset: "amazon-ca",
      rating_breakdown: null,
    });
  });

  it("gives no price for the file's 0.0 and no rating for a product without reviews", async () => {
    const unpriced = ca.find((r) => Number(r.price) === 0)!;
    expect((await get(`/product/${unpriced.asin}`)).body.data).toMatchObject({ price: null, list_price: null, discount: null });
    const unrated = ca.find((r) => Number(r.reviews) === 0)!;
    expect((await get(`/product/${unrated.asin}`)).body.data).toMatchObject({ rating: null, ratings_count: 0 });
  });

  it("reads the ASIN in any case", async () => {
    const { status, body } = await get("/product/b07cv4l6hx");
    expect(status).toBe(200);
    expect(body.data.asin).toBe("B07CV4L6HX");
  });
});

describe("GET /product/{asin} known only from reviews", () => {
  it("has only what the reviews give: a rating, its count and the breakdown", async () => {
    const product = [...us].sort((a, b) => b.reviews - a.reviews)[0];
    const { body } = await get(`/product/${product.asin}`);
    expect(body.data).toEqual({
      asin: product.asin,
      locale: "US",
      marketplace: "amazon.com",
      title: null,
      brand: null,
      image_url: null,
      images: [],
      product_url: null,
      price: null,
      list_price: null,
      discount: null,
      rating: product.rating,
      ratings_count: product.rated,
      rating_basis: "reviews",
      categories: [],
      is_best_seller: null,
      bought_last_month: null,
      review_count: product.reviews,
      // The newest of its reviews: the rating is theirs.
      data_as_of: fineFood()
        .filter((r) => r.ProductId === product.asin)
        .map((r) => new Date(Number(r.Time) * 1000).toISOString().slice(0, 10))
        .sort()
        .at(-1),
      dataset: "fine-food",
      rating_breakdown: stars(product.histogram, product.rated),
    });
  });

  it("counts a review without a score among the reviews but not the ratings", async () => {
    const unscored = fineFood().find((r) => r.Score === "")!;
    const product = us.find((p) => p.asin === unscored.ProductId)!;
    const { body } = await get(`/product/${product.asin}`);
    expect(body.data.review_count).toBe(product.reviews);
    expect(body.data.ratings_count).toBe(product.rated);
    expect(product.rated).toBe(product.reviews - 1);
  });
});

describe("GET /product/{asin} errors", () => {
  it.each(["B07CV4L6H", "B07CV4L6HX1", "B07CV4L6-X"])("%s is a 400 naming the ASIN format", async (asin) => {
    const { status, body } = await get(`/product/${asin}`);
    expect(status).toBe(400);
    expect(body.error.code).toBe("VALIDATION_ERROR");
    expect(body.error.details[0].field).toBe("asin");
    expect(body.error.details[0].issue).toBe("must be an ASIN: 10 characters, letters and digits, such as B07CV4L6HX");
  });

  it("is a 404 for an ASIN the catalogue does not hold", async () => {
    const { status, body } = await get("/product/B000000000");
    expect(status).toBe(404);
    expect(body.error.code).toBe("NOT_FOUND");
    expect(body.error.message).toContain("B000000000");
  });

  it("needs a key", async () => {
    const res = await started.app.inject({ method: "GET", url: "/product/B07CV4L6HX" });
    expect(res.statusCode).toBe(401);
  });
});
