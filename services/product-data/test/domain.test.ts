import { describe, expect, it } from "vitest";
import { amazonCaProduct, categoryOf, discountOf, fineFoodReview, InvalidRecord, normalizeAsin, ratingBreakdown } from "../src/domain/products.js";

const caRow = {
  asin: "B087P7538J",
  title: "YaeCCC 19 Pcs Hole Saw Kit",
  imgUrl: "https://m.media-amazon.com/images/I/71P+qLFDFcL._AC_UL320_.jpg",
  productURL: "https://www.amazon.ca/dp/B087P7538J",
  stars: "4.0",
  reviews: "126",
  price: "25.99",
  listPrice: "27.99",
  categoryName: "Industrial  Scientific",
  isBestSeller: "False",
  boughtInLastMonth: "50",
};

const reviewRow = {
  Id: "1",
  ProductId: "B001E4KFG0",
  UserId: "A3SGXH7AUHU8GW",
  ProfileName: "delmartian",
  HelpfulnessNumerator: "1",
  HelpfulnessDenominator: "2",
  Score: "5",
  Time: "1303862400",
  Summary: "Good Quality Dog Food",
  Text: "I have bought several of the Vitality canned dog food products.",
};

describe("ASINs", () => {
  it("are 10 letters and digits, upper-cased", () => {
    expect(normalizeAsin("b07cv4l6hx")).toBe("B07CV4L6HX");
    expect(normalizeAsin("0006641040")).toBe("0006641040");
    expect(normalizeAsin("B07CV4L6H")).toBeNull();
    expect(normalizeAsin("B07CV4L6H!")).toBeNull();
  });
});

describe("amazon.ca rows", () => {
  it("put the category's lost ampersand back", () => {
    expect(categoryOf("Motorcycle Accessories  Parts")).toEqual({ id: "motorcycle-accessories-parts", name: "Motorcycle Accessories & Parts" });
  });

  it("read 0.0 as no price, no list price and no rating", () => {
    const row = amazonCaProduct({ ...caRow, price: "0.0", listPrice: "0.0", stars: "0.0", reviews: "0" }, 7);
    expect(row).toMatchObject({ price: null, list_price: null, rating: null, ratings_count: 0, revision: 7 });
  });

  it("keep the listing's fields", () => {
    expect(amazonCaProduct(caRow, 3)).toMatchObject({
      price: 25.99,
      list_price: 27.99,
      rating: 4,
      ratings_count: 126,
      currency: "CAD",
      is_best_seller: false,
      bought_last_month: 50,
      brand: null,
    });
  });

  it.each([
    [{ stars: "5.1" }, 'stars "5.1" is not a number between 0 and 5'],
    [{ reviews: "many" }, 'reviews "many" is not a whole number'],
    [{ isBestSeller: "yes" }, 'isBestSeller "yes" is not True or False'],
    [{ title: " " }, "title is empty"],
  ])("refuse %o", (change, reason) => {
    expect(() => amazonCaProduct({ ...caRow, ...change }, 1)).toThrow(new InvalidRecord(reason));
  });
});

describe("Fine Food rows", () => {
  it("become reviews dated by their day", () => {
    expect(fineFoodReview(reviewRow, 1)).toMatchObject({
      id: "fine-food-1",
      rating: 5,
      reviewed_on: "2011-04-27",
      helpful_votes: 1,
      total_votes: 2,
      verified_purchase: null,
    });
  });

  it("keep a review with an empty Score, without rating", () => {
    expect(fineFoodReview({ ...reviewRow, Score: "" }, 1).rating).toBeNull();
  });

  it("refuse a score out of 1 to 5 and an empty review", () => {
    expect(() => fineFoodReview({ ...reviewRow, Score: "0" }, 1)).toThrow('Score "0" is not a rating from 1 to 5');
    expect(() => fineFoodReview({ ...reviewRow, Summary: "", Text: "" }, 1)).toThrow("Summary and Text are both empty");
  });
});

describe("prices and ratings", () => {
  it("give a discount only when the list price is above the price", () => {
    expect(discountOf(78.99, 85.99)).toEqual({ amount: 7, percent: 8 });
    expect(discountOf(10, 10)).toBeNull();
    expect(discountOf(10, null)).toBeNull();
  });

  it("break ratings down in whole percents", () => {
    const counts = new Map([
      [5, 3],
      [1, 1],
    ]);
    expect(ratingBreakdown(counts)).toMatchObject({
      five_star: { count: 3, percent: 75 },
      one_star: { count: 1, percent: 25 },
      three_star: { count: 0, percent: 0 },
    });
  });
});
