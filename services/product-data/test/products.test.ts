/** The product routes over HTTP: /search (listings, text, filters, sorts, facets) and /product/{asin}. */
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

const asins = (body: { data: { products: { asin: string }[] } }) => body.data.products.map((p) => p.asin);
const byKeys =
  <T>(...keys: ((item: T) => number | string)[]) =>
  (a: T, b: T) => {
    for (const key of keys) {
      const [x, y] = [key(a), key(b)];
      if (x < y) return -1;
      if (x > y) return 1;
    }
    return 0;
  };

describe("GET /search filters", () => {
  it("holds every product of both files, one per ASIN", async () => {
    const { status, body } = await get("/search?limit=1");
    expect(status).toBe(200);
    expect(body.data.total_results).toBe(ca.length + us.length);
    expect(ca.length).toBe(6999);
    expect(us.length).toBe(731);
  });

  it("filters by locale, any case, and a comma list of them", async () => {
    expect((await get("/search?locale=CA&limit=1")).body.data.total_results).toBe(ca.length);
    expect((await get("/search?locale=us&limit=1")).body.data.total_results).toBe(us.length);
    expect((await get("/search?locale=ca,US&limit=1")).body.data.total_results).toBe(ca.length + us.length);
  });

  it("filters by category id or by the category's name", async () => {
    const industrial = ca.filter((r) => r.categoryName === "Industrial  Scientific").length;
    expect((await get("/search?category=industrial-scientific&limit=1")).body.data.total_results).toBe(industrial);
    const byName = await get(`/search?category=${encodeURIComponent("Industrial & Scientific")}&limit=1`);
    expect(byName.body.data.total_results).toBe(industrial);
    expect(byName.body.data.products[0].categories).toEqual([{ id: "industrial-scientific", name: "Industrial & Scientific" }]);
  });

  it("keeps prices between min_price and max_price, both inclusive", async () => {
    const prices = ca.map((r) => Number(r.price)).filter((p) => p > 0);
    const expected = prices.filter((p) => p >= 19.99 && p <= 29.99).length;
    const { body } = await get("/search?min_price=19.99&max_price=29.99&sort=price_asc&limit=100");
    expect(body.data.total_results).toBe(expected);
    expect(body.data.products[0].price).toEqual({ value: 19.99, currency: "CAD" });
    const last = await get("/search?min_price=19.99&max_price=29.99&sort=price_desc&limit=1");
    expect(last.body.data.products[0].price.value).toBe(29.99);
  });

  it("keeps ratings of at least min_rating, from the listing (CA) or the reviews (US)", async () => {
    const expectedCa = ca.filter((r) => Number(r.reviews) > 0 && Number(r.stars) >= 4.5).length;
    const expectedUs = us.filter((p) => p.rating !== null && p.rating >= 4.5).length;
    expect((await get("/search?locale=CA&min_rating=4.5&limit=1")).body.data.total_results).toBe(expectedCa);
    expect((await get("/search?locale=US&min_rating=4.5&limit=1")).body.data.total_results).toBe(expectedUs);
  });

  it("filters best sellers; false means known not to be one (US products have no flag)", async () => {
    expect((await get("/search?is_best_seller=true&limit=1")).body.data.total_results).toBe(ca.filter((r) => r.isBestSeller === "True").length);
    expect((await get("/search?is_best_seller=false&limit=1")).body.data.total_results).toBe(ca.filter((r) => r.isBestSeller === "False").length);
  });

  it("combines filters", async () => {
    const expected = ca.filter(
      (r) =>
        r.categoryName === "Motorcycle Accessories  Parts" && Number(r.price) > 0 && Number(r.price) <= 50 && Number(r.stars) >= 4 && Number(r.reviews) > 0,
    ).length;
    const { body } = await get("/search?category=motorcycle-accessories-parts&max_price=50&min_rating=4&limit=1");
    expect(body.data.total_results).toBe(expected);
  });

  it("answers an empty page when nothing matches", async () => {
    const { status, body } = await get("/search?locale=US&min_price=1&limit=5");
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ total_results: 0, next_cursor: null, products: [] });
  });
});

describe("GET /search facets", () => {
  it("counts categories and price bands of the matching products", async () => {
    const { body } = await get("/search?locale=CA&facets=true&limit=1");
    const count = (name: string) => ca.filter((r) => r.categoryName === name).length;
    expect(body.data.facets.category).toEqual([
      { id: "motorcycle-accessories-parts", name: "Motorcycle Accessories & Parts", count: count("Motorcycle Accessories  Parts") },
      { id: "industrial-scientific", name: "Industrial & Scientific", count: count("Industrial  Scientific") },
    ]);
    const bands = [
      [0, 10],
      [10, 25],
      [25, 50],
      [50, 100],
      [100, 200],
      [200, Infinity],
    ];
    const prices = ca.map((r) => Number(r.price)).filter((p) => p > 0);
    expect(body.data.facets.price_band.map((b: { count: number }) => b.count)).toEqual(
      bands.map(([min, max]) => prices.filter((p) => p >= min && p < max).length),
    );
    expect(body.data.facets.price_band[5]).toMatchObject({ id: "200+", min: 200, max: null });
  });

  it("counts only what the other filters keep", async () => {
    const kept = ca.filter((r) => r.isBestSeller === "True");
    const { body } = await get("/search?is_best_seller=true&category=industrial-scientific&facets=true&limit=1");
    expect(body.data.facets.category).toEqual([
      { id: "industrial-scientific", name: "Industrial & Scientific", count: kept.filter((r) => r.categoryName === "Industrial  Scientific").length },
    ]);
    const inBand = kept.filter((r) => r.categoryName === "Industrial  Scientific" && Number(r.price) >= 10 && Number(r.price) < 25).length;
    expect(body.data.facets.price_band[1]).toEqual({ id: "10-25", min: 10, max: 25, count: inBand });
  });
});

describe("GET /search sorting", () => {
  it("sorts by price, the ASIN breaking ties, products without a price last", async () => {
    const priced = ca.filter((r) => Number(r.price) > 0);
    const cheapest = [...priced]
      .sort(
        byKeys(
          (r) => Number(r.price),
          (r) => r.asin,
        ),
      )
      .slice(0, 5)
      .map((r) => r.asin);
    expect(asins((await get("/search?sort=price_asc&limit=5")).body)).toEqual(cheapest);
    const dearest = [...priced]
      .sort(
        byKeys(
          (r) => -Number(r.price),
          (r) => r.asin,
        ),
      )
      .slice(0, 5)
      .map((r) => r.asin);
    expect(asins((await get("/search?sort=price_desc&limit=5")).body)).toEqual(dearest);
    const unpriced = ca.filter((r) => Number(r.price) === 0).length + us.length;
    const { body } = await get(`/search?sort=price_asc&limit=1&cursor=${await cursorAt("sort=price_asc", priced.length)}`);
    expect(body.data.products[0].price).toBeNull();
    expect(body.data.total_results - priced.length).toBe(unpriced);
  });

  it("sorts by rating, then by ratings count, across both marketplaces, untitled products after titled ones", async () => {
    const all = [
      ...ca.filter((r) => Number(r.reviews) > 0).map((r) => ({ asin: r.asin, titled: 0, rating: Number(r.stars), count: Number(r.reviews) })),
      ...us.filter((p) => p.rating !== null).map((p) => ({ asin: p.asin, titled: 1, rating: p.rating!, count: p.rated })),
    ];
    const sorted = all.sort(
      byKeys(
        (p) => p.titled,
        (p) => -p.rating,
        (p) => -p.count,
        (p) => p.asin,
      ),
    );
    expect(asins((await get("/search?sort=rating&limit=10")).body)).toEqual(sorted.slice(0, 10).map((p) => p.asin));
    // The first Fine Food product (no title) comes right after the last amazon.ca one, unrated ones included.
    const firstUntitled = ca.length;
    const { body } = await get(`/search?sort=rating&limit=2&cursor=${await cursorAt("sort=rating", firstUntitled - 1)}`);
    expect(body.data.products.map((p: { title: string | null }) => p.title === null)).toEqual([false, true]);
    expect(body.data.products[1].asin).toBe(sorted.find((p) => p.titled === 1)!.asin);
  });

  it("ranks no untitled product above a titled one in a text search across both marketplaces", async () => {
    const { body } = await get(`/search?q=${encodeURIComponent("great")}&limit=100`);
    const untitled = body.data.products.map((p: { title: string | null }) => p.title === null);
    expect(untitled).toContain(true);
    expect(untitled).toContain(false);
    expect(untitled.indexOf(true)).toBeGreaterThan(untitled.lastIndexOf(false));
  });

  it("sorts by ratings count", async () => {
    const expected = [...ca]
      .sort(
        byKeys(
          (r) => -Number(r.reviews),
          (r) => r.asin,
        ),
      )
      .slice(0, 5)
      .map((r) => r.asin);
    expect(asins((await get("/search?sort=reviews&limit=5")).body)).toEqual(expected);
  });

  it("puts best sellers first by default, the most bought first", async () => {
    const expected = [...ca]
      .sort(
        byKeys(
          (r) => (r.isBestSeller === "True" ? 0 : 1),
          (r) => -Number(r.boughtInLastMonth),
          (r) => -Number(r.reviews),
          (r) => r.asin,
        ),
      )
      .slice(0, 10)
      .map((r) => r.asin);
    expect(asins((await get("/search?limit=10")).body)).toEqual(expected);
    expect(asins((await get("/search?sort=best_sellers&limit=10")).body)).toEqual(expected);
  });
});

describe("GET /search text", () => {
  it("finds a title by its words, best match first", async () => {
    const { body } = await get(`/search?q=${encodeURIComponent("Green Leaf Wonder Extension Cord Winder")}`);
    expect(body.data.products[0]).toMatchObject({ asin: "B07CV4L6HX", title: "Green Leaf WW3D Wonder Extension Cord Winder, Gray, 150 Foot" });
    expect(body.data.corrected_query).toBeNull();
  });

  it("corrects a misspelt word from the catalogue's vocabulary and says so", async () => {
    const { body } = await get(`/search?q=${encodeURIComponent("windshild repair")}&limit=100`);
    expect(body.data.corrected_query).toBe("windshield repair");
    const expected = ca
      .filter((r) => /windshield/i.test(r.title) && /repair/i.test(r.title))
      .map((r) => r.asin)
      .sort();
    expect(asins(body).sort()).toEqual(expected);
    expect(expected.length).toBeGreaterThan(0);
  });

  it("finds a product known only from reviews by its review titles", async () => {
    const { body } = await get(`/search?q=${encodeURIComponent('"Good Quality Dog Food"')}&locale=US`);
    expect(asins(body)).toContain("B001E4KFG0");
    expect(body.data.products.find((p: { asin: string }) => p.asin === "B001E4KFG0").title).toBeNull();
  });

  it("answers an empty page for a word nothing resembles", async () => {
    const { status, body } = await get("/search?q=qzxjvq");
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ total_results: 0, next_cursor: null, products: [] });
  });
});

/** The cursor of the page starting at `offset`, found by walking pages of 100. */
async function cursorAt(query: string, offset: number): Promise<string> {
  let cursor: string | null = null;
  for (let at = 0; at < offset; at += 100) {
    const { body }: { body: any } = await get(`/search?${query}&limit=${Math.min(100, offset - at)}${cursor ? `&cursor=${cursor}` : ""}`);
    cursor = body.data.next_cursor;
  }
  return cursor!;
}

describe("GET /search pagination", () => {
  it("walks every page once, the last one short and without a next cursor", async () => {
    const seen = new Set<string>();
    let cursor: string | null = null;
    let pages = 0;
    let lastSize = 0;
    do {
      const { body }: { body: any } = await get(`/search?locale=US&sort=rating&limit=100${cursor ? `&cursor=${cursor}` : ""}`);
      for (const p of body.data.products) seen.add(p.asin);
      cursor = body.data.next_cursor;
      lastSize = body.data.products.length;
      pages++;
    } while (cursor);
    expect(seen.size).toBe(us.length);
    expect(pages).toBe(Math.ceil(us.length / 100));
    expect(lastSize).toBe(us.length % 100);
  });

  it("takes limits from 1 to 100 (default 10) and refuses others", async () => {
    expect((await get("/search")).body.data.products).toHaveLength(10);
    expect((await get("/search?limit=100")).body.data.products).toHaveLength(100);
    expect((await get("/search?limit=1")).body.data.products).toHaveLength(1);
    for (const limit of [0, 101]) {
      const { status, body } = await get(`/search?limit=${limit}`);
      expect(status).toBe(400);
      expect(body.error.details[0].field).toBe("limit");
    }
  });

  it("refuses a cursor that is not one, or belongs to other parameters", async () => {
    const garbage = await get("/search?cursor=not-a-cursor");
    expect(garbage.status).toBe(400);
    expect(garbage.body.error.details[0].field).toBe("cursor");
    const first = await get("/search?locale=CA&limit=5");
    const replayed = await get(`/search?locale=US&limit=5&cursor=${first.body.data.next_cursor}`);
    expect(replayed.status).toBe(400);
    expect(replayed.body.error.details[0].field).toBe("cursor");
  });
});

describe("GET /search validation", () => {
  it.each([
    ["/search?locale=UK", "locale", "CA, US"],
    ["/search?locale=", "locale", "CA, US"],
    ["/search?category=garden", "category", "industrial-scientific"],
    ["/search?min_price=50&max_price=10", "max_price", "at least min_price"],
    ["/search?min_price=-1", "min_price", ""],
    ["/search?min_rating=5.5", "min_rating", ""],
    ["/search?sort=relevance", "sort", "needs q"],
    ["/search?sort=cheapest", "sort", ""],
    ["/search?q=%20%20", "q", "at least one word"],
    ["/search?is_best_seller=maybe", "is_best_seller", ""],
  ])("%s is a 400 naming %s", async (url, field, words) => {
    const { status, body } = await get(url);
    expect(status).toBe(400);
    expect(body.error.code).toBe("VALIDATION_ERROR");
    expect(body.error.details[0].field).toBe(field);
    expect(body.error.details[0].issue).toContain(words);
  });
});

describe("auth", () => {
  it("needs a key and this service's host", async () => {
    const none = await started.app.inject({ method: "GET", url: "/search" });
    expect(none.statusCode).toBe(401);
    expect(none.json().error.code).toBe("MISSING_API_KEY");
    const caller = await started.subscribe("PRO");
    const other = await get("/search", { ...caller.headers, "x-gateway-host": "news.api.local" });
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe("HOST_MISMATCH");
    const wrongKey = await get("/search", { ...caller.headers, "x-gateway-key": "not-a-key" });
    expect(wrongKey.status).toBe(403);
    expect(wrongKey.body.error.code).toBe("INVALID_API_KEY");
  });
});

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
