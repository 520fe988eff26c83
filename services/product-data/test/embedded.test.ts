/** The same SQL on the embedded PGlite (with its contrib pg_trgm): every endpoint over the first rows of both files. */
import type { StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caProducts, fineFood, getter, startProductData } from "./helpers.js";

const LIMIT = 1500;
let started: StartedService;
let get: ReturnType<typeof getter>;

beforeAll(async () => {
  started = await startProductData({ embedded: true, limit: LIMIT });
  get = getter(started, (await started.subscribe("PRO")).headers);
}, 120_000);
afterAll(() => started.close());

describe("product-data on PGlite", () => {
  it("answers search, facets, typo correction, product and reviews", async () => {
    const ca = caProducts().slice(0, LIMIT);
    const reviews = fineFood().slice(0, LIMIT);
    const facets = await get("/search?locale=CA&facets=true&limit=1");
    expect(facets.body.data.total_results).toBe(ca.length);
    expect(facets.body.data.facets.category.map((c: { count: number }) => c.count).reduce((a: number, b: number) => a + b, 0)).toBe(ca.length);
    const corrected = await get("/search?q=windshild");
    expect(corrected.body.data.corrected_query).toBe("windshield");
    expect(corrected.body.data.total_results).toBe(ca.filter((r) => /windshield/i.test(r.title)).length);
    expect((await get(`/product/${ca[0].asin}`)).body.data.title).toBe(ca[0].title);
    const asin = reviews[0].ProductId;
    const page = await get(`/reviews/${asin}?sort=helpful`);
    expect(page.body.data.summary.review_count).toBe(reviews.filter((r) => r.ProductId === asin).length);
    expect((await get("/sources")).status).toBe(200);
  });
});
