/** The same SQL on the embedded PGlite (with its contrib pg_trgm): every endpoint over a small index. */
import type { StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startIndexed } from "./helpers.js";

let started: StartedService;
let headers: Record<string, string>;
const LIMITS = {
  "wikipedia-films": 40, "wikipedia-people": 40, "stackexchange-coffee": 120, "stackexchange-beer": 40,
  "coco-images": 40, "coco-captions": 300, "news-huffpost": 100, "news-uci": 40,
};

beforeAll(async () => {
  started = await startIndexed({ embedded: true, limits: LIMITS });
  headers = (await started.subscribe("PRO")).headers;
});
afterAll(() => started.close());

describe("search-results on PGlite", () => {
  it("answers every endpoint, typo correction and related searches included", async () => {
    for (const url of ["/search?q=cofee", "/search?q=coffee%20beans&num=100&safe=active", "/images?q=dog", "/news?q=trump", "/sources"]) {
      const res = await started.app.inject({ method: "GET", url, headers });
      expect(res.statusCode, url).toBe(200);
    }
    const typo = (await started.app.inject({ method: "GET", url: "/search?q=cofee", headers })).json().data;
    expect(typo.search_information.showing_results_for).toBe("coffee");
    expect(typo.organic_results.length).toBeGreaterThan(0);
    expect(typo.related_searches.length).toBeGreaterThan(0);
    const film = (await started.app.inject({ method: "GET", url: "/search?q=%22Kansas%20Saloon%20Smashers%22", headers })).json().data;
    expect(film.organic_results[0]).toMatchObject({ title: "Kansas Saloon Smashers", link: "https://en.wikipedia.org/wiki/Kansas_Saloon_Smashers" });
  });
});
