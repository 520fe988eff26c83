import type { StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caProducts, fineFood, fineFoodProducts, getter, startProductData } from "./helpers.js";

let started: StartedService;
let get: ReturnType<typeof getter>;
const rows = fineFood().map((row, index) => ({ ...row, line: index + 1 }));
const products = fineFoodProducts();
/** The product with the most reviews. */
const busiest = [...products].sort((a, b) => b.reviews - a.reviews)[0];
const ofBusiest = rows.filter((r) => r.ProductId === busiest.asin);

beforeAll(async () => {
  started = await startProductData();
  get = getter(started, (await started.subscribe("PRO")).headers);
}, 120_000);
afterAll(() => started.close());

const day = (seconds: string) => new Date(Number(seconds) * 1000).toISOString().slice(0, 10);
const ids = (body: { data: { reviews: { id: string }[] } }) => body.data.reviews.map((r) => r.id);
/** Newest first, then the file's order: the service's tie-breaker. */
const newestFirst = (a: { Time: string; line: number }, b: { Time: string; line: number }) => day(b.Time).localeCompare(day(a.Time)) || a.line - b.line;

describe("GET /reviews/{asin}", () => {
  it("gives the newest reviews with every field, and the summary of all of them", async () => {
    const { status, body } = await get(`/reviews/${busiest.asin}?limit=3`);
    expect(status).toBe(200);
    const newest = [...ofBusiest].sort(newestFirst)[0];
    expect(body.data.reviews[0]).toEqual({
      id: `fine-food-${newest.Id}`,
      asin: busiest.asin,
      locale: "US",
      rating: Number(newest.Score),
      title: newest.Summary,
      text: newest.Text,
      author: newest.ProfileName,
      author_id: newest.UserId,
      date: day(newest.Time),
      helpful_votes: Number(newest.HelpfulnessNumerator),
      total_votes: Number(newest.HelpfulnessDenominator),
      verified_purchase: null,
    });
    const count = (n: number) => ofBusiest.filter((r) => r.Score === String(n)).length;
    const rated = ofBusiest.filter((r) => r.Score !== "").length;
    const sum = ofBusiest.reduce((total, r) => total + Number(r.Score || 0), 0);
    expect(body.data.total_results).toBe(ofBusiest.length);
    expect(body.data.summary).toEqual({
      average_rating: Math.round((sum * 100) / rated) / 100,
      ratings_count: rated,
      rating_basis: "reviews",
      review_count: ofBusiest.length,
      rated_count: rated,
      rating_breakdown: Object.fromEntries(
        (["one_star", "two_star", "three_star", "four_star", "five_star"] as const).map((name, i) => [
          name,
          { count: count(i + 1), percent: Math.round((count(i + 1) / rated) * 100) },
        ]),
      ),
    });
  });

  it("sorts by helpful votes and by rating either way", async () => {
    const helpful = [...ofBusiest].sort((a, b) => Number(b.HelpfulnessNumerator) - Number(a.HelpfulnessNumerator) || newestFirst(a, b));
    expect(ids((await get(`/reviews/${busiest.asin}?sort=helpful&limit=5`)).body)).toEqual(helpful.slice(0, 5).map((r) => `fine-food-${r.Id}`));
    const lowest = [...ofBusiest].sort((a, b) => Number(a.Score) - Number(b.Score) || newestFirst(a, b));
    expect(ids((await get(`/reviews/${busiest.asin}?sort=rating_asc&limit=5`)).body)).toEqual(lowest.slice(0, 5).map((r) => `fine-food-${r.Id}`));
    const highest = [...ofBusiest].sort((a, b) => Number(b.Score) - Number(a.Score) || newestFirst(a, b));
    expect(ids((await get(`/reviews/${busiest.asin}?sort=rating&limit=5`)).body)).toEqual(highest.slice(0, 5).map((r) => `fine-food-${r.Id}`));
  });

  it("filters by ratings, keeping the summary of every review", async () => {
    const expected = ofBusiest.filter((r) => r.Score === "1" || r.Score === "2").length;
    const { body } = await get(`/reviews/${busiest.asin}?rating=1,2&limit=100`);
    expect(body.data.total_results).toBe(expected);
    expect(body.data.reviews.every((r: { rating: number }) => r.rating <= 2)).toBe(true);
    expect(body.data.summary.review_count).toBe(ofBusiest.length);
  });

  it("searches the reviews' words", async () => {
    const word = /\bsalty\b/i;
    const expected = ofBusiest.filter((r) => word.test(`${r.Summary} ${r.Text}`)).length;
    const { body } = await get(`/reviews/${busiest.asin}?q=salty&limit=100`);
    expect(body.data.total_results).toBe(expected);
    expect(expected).toBeGreaterThan(0);
  });

  it("answers no review for verified_only: no dataset flags verified purchases", async () => {
    const { status, body } = await get(`/reviews/${busiest.asin}?verified_only=true`);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ total_results: 0, next_cursor: null, reviews: [] });
  });

  it("keeps a review without a score, last when sorting by rating", async () => {
    const unscored = rows.find((r) => r.Score === "")!;
    const all = rows.filter((r) => r.ProductId === unscored.ProductId);
    const { body } = await get(`/reviews/${unscored.ProductId}?sort=rating&limit=100`);
    expect(body.data.total_results).toBe(all.length);
    expect(body.data.reviews.at(-1)).toMatchObject({ id: `fine-food-${unscored.Id}`, rating: null, title: unscored.Summary });
    expect(body.data.summary.rated_count).toBe(all.length - 1);
  });

  it("gives a product without reviews in the dataset the rating /product gives, from the listing", async () => {
    const listing = caProducts().find((r) => r.asin === "B07CV4L6HX")!;
    const { status, body } = await get("/reviews/B07CV4L6HX");
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ total_results: 0, reviews: [] });
    expect(body.data.summary).toEqual({
      average_rating: Number(listing.stars),
      ratings_count: Number(listing.reviews),
      rating_basis: "marketplace",
      review_count: 0,
      rated_count: 0,
      rating_breakdown: null,
    });
    expect([Number(listing.stars), Number(listing.reviews)]).toEqual([4.4, 2876]);
    const product = (await get("/product/B07CV4L6HX")).body.data;
    expect([product.rating, product.ratings_count, product.rating_basis]).toEqual([4.4, 2876, "marketplace"]);
  });

  it("gives every product one rating: its /reviews summary and its /product agree", async () => {
    for (const asin of [busiest.asin, products[1].asin, caProducts()[5].asin]) {
      const summary = (await get(`/reviews/${asin}`)).body.data.summary;
      const product = (await get(`/product/${asin}`)).body.data;
      expect([summary.average_rating, summary.ratings_count, summary.rating_basis]).toEqual([product.rating, product.ratings_count, product.rating_basis]);
      expect(summary.rating_breakdown).toEqual(product.rating_breakdown);
    }
  });
});

describe("GET /reviews/{asin} pagination", () => {
  it("walks every review once, the last page short", async () => {
    const seen = new Set<string>();
    let cursor: string | null = null;
    let last = 0;
    do {
      const { body }: { body: any } = await get(`/reviews/${busiest.asin}?limit=100${cursor ? `&cursor=${cursor}` : ""}`);
      for (const r of body.data.reviews) seen.add(r.id);
      cursor = body.data.next_cursor;
      last = body.data.reviews.length;
    } while (cursor);
    expect(seen.size).toBe(ofBusiest.length);
    expect(last).toBe(ofBusiest.length % 100);
  });

  it("refuses limit 101 and a cursor of another product", async () => {
    expect((await get(`/reviews/${busiest.asin}?limit=100`)).status).toBe(200);
    const tooMany = await get(`/reviews/${busiest.asin}?limit=101`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details[0].field).toBe("limit");
    const first = await get(`/reviews/${busiest.asin}?limit=5`);
    const other = products.find((p) => p.reviews > 10 && p.asin !== busiest.asin)!;
    const replayed = await get(`/reviews/${other.asin}?limit=5&cursor=${first.body.data.next_cursor}`);
    expect(replayed.status).toBe(400);
    expect(replayed.body.error.details[0].field).toBe("cursor");
  });
});

describe("GET /reviews/{asin} errors", () => {
  it.each([
    ["/reviews/B0000", "asin"],
    ["/reviews/B07CV4L6HX?rating=6", "rating"],
    ["/reviews/B07CV4L6HX?rating=five", "rating"],
    ["/reviews/B07CV4L6HX?sort=oldest", "sort"],
    ["/reviews/B07CV4L6HX?q=", "q"],
  ])("%s is a 400 naming %s", async (url, field) => {
    const { status, body } = await get(url);
    expect(status).toBe(400);
    expect(body.error.details[0].field).toBe(field);
  });

  it("is a 404 for an unknown ASIN", async () => {
    const { status, body } = await get("/reviews/B000000000");
    expect(status).toBe(404);
    expect(body.error.code).toBe("NOT_FOUND");
  });

  it("needs a key", async () => {
    expect((await started.app.inject({ method: "GET", url: `/reviews/${busiest.asin}` })).statusCode).toBe(401);
  });
});
