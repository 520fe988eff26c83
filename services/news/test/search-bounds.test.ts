/**
 * The bounds of q over HTTP: each at its edge, the attacks that once stalled the service (prefix floods) or failed it
 * (32 and more excluded prefixes), and excluded prefixes excluding.
 */
import { QUERY_BOUNDS } from "@apiplat/catalogue";
import { searchBoundCases, type StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNews } from "./helpers.js";

let started: StartedService;
let headers: Record<string, string>;

beforeAll(async () => {
  started = await startNews();
  headers = (await started.subscribe("PRO")).headers;
});
afterAll(() => started.close());

async function search(q: string) {
  const res = await started.app.inject({
    method: "GET",
    url: `/search?limit=100&q=${encodeURIComponent(q)}`,
    headers: { ...headers, "cache-control": "no-cache" },
  });
  return { status: res.statusCode, body: res.json() };
}

describe("GET /search bounds of q", () => {
  it.each(searchBoundCases({ ...QUERY_BOUNDS, maxLength: 500 }))("$name: $status", async ({ q, status, issue }) => {
    const { status: answered, body } = await search(q);
    expect(answered).toBe(status);
    if (issue) {
      expect(body.error.details).toEqual([{ field: "q", issue: expect.stringMatching(issue) }]);
    }
  });

  it("excludes an excluded prefix: trump = trump -pres* plus trump pres*", async () => {
    const all = await search("trump");
    const without = await search("trump -pres*");
    const withIt = await search("trump pres*");
    expect(without.body.data.total_results).toBeGreaterThan(0);
    expect(withIt.body.data.total_results).toBeGreaterThan(0);
    expect(without.body.data.total_results + withIt.body.data.total_results).toBe(all.body.data.total_results);
  });
});
