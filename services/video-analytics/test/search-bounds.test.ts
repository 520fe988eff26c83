/**
 * The bounds of q over HTTP: each at its edge, the attacks that once stalled the service (prefix floods) or failed it
 * (32 and more excluded prefixes), and excluded prefixes excluding.
 */
import { INDEX_BOUNDS, QUERY_BOUNDS } from "@apiplat/catalogue";
import { serviceDatabase } from "@apiplat/service-kit";
import { prefixesAround, searchBoundCases, type StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import service from "../src/service.js";
import { startVideo } from "./helpers.js";

let started: StartedService;
let headers: Record<string, string>;

beforeAll(async () => {
  started = await startVideo();
  headers = (await started.subscribe("PRO")).headers;
});
afterAll(() => started.close());

async function search(q: string, extra = "") {
  const res = await started.app.inject({
    method: "GET",
    url: `/search?limit=100&q=${encodeURIComponent(q)}${extra}`,
    headers: { ...headers, "cache-control": "no-cache" },
  });
  return { status: res.statusCode, body: res.json() };
}

describe("GET /search bounds of q", () => {
  it.each(searchBoundCases({ ...QUERY_BOUNDS, maxLength: 300 }))("$name: $status", async ({ q, status, issue }) => {
    const { status: answered, body } = await search(q);
    expect(answered).toBe(status);
    if (issue) {
      expect(body.error.details).toEqual([{ field: "q", issue: expect.stringMatching(issue) }]);
    }
  });

  it("excludes an excluded prefix: music = music -vid* plus music vid*", async () => {
    const all = await search("music");
    const without = await search("music -vid*");
    const withIt = await search("music vid*");
    expect(without.body.data.total_results).toBeGreaterThan(0);
    expect(withIt.body.data.total_results).toBeGreaterThan(0);
    expect(without.body.data.total_results + withIt.body.data.total_results).toBe(all.body.data.total_results);
  });

  it("refuses a prefix standing for more words of the catalogue than a search expands, and answers one that stands for fewer", async () => {
    const db = await serviceDatabase(service, started.platform.deps.db);
    const { broad, narrow } = await prefixesAround(db, "SELECT document FROM videos", INDEX_BOUNDS.maxPrefixExpansions);
    expect(broad.words).toBeGreaterThan(INDEX_BOUNDS.maxPrefixExpansions);
    const refused = await search(`${broad.prefix}*`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([
      {
        field: "q",
        issue: `has the prefix "${broad.prefix}*", which stands for more than ${INDEX_BOUNDS.maxPrefixExpansions} words of the catalogue; give it more letters`,
      },
    ]);
    expect((await search(`${narrow.prefix}*`)).status).toBe(200);
  });
});
