/** The same SQL on the embedded PGlite (with its contrib pg_trgm): every endpoint over the whole catalogue. */
import type { StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getter, secRowOf, startCompanyData, tenDigits } from "./helpers.js";

let started: StartedService;
let get: ReturnType<typeof getter>;

beforeAll(async () => {
  started = await startCompanyData({ embedded: true });
  get = getter(started, (await started.subscribe("PRO")).headers);
});
afterAll(() => started.close());

describe("company-data on PGlite", () => {
  it("answers every endpoint", async () => {
    const apple = tenDigits(secRowOf("AAPL")[0]);
    expect((await get("/search?name=aple%20inc")).body.data.companies[0].id).toBe(apple);
    for (const url of ["/search?sector=Technology&state=CA&min_employees=1000", "/search?ticker=BRK.B", `/company/${apple}`, "/domain/www.apple.com", "/sources"]) {
      expect((await get(url)).status, url).toBe(200);
    }
  });
});
