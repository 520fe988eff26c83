/**
 * The bounds of q over HTTP: each at its edge, the attacks that once stalled the service (prefix floods) or failed it
 * (32 and more excluded prefixes), and excluded prefixes excluding.
 */
import { INDEX_BOUNDS, QUERY_BOUNDS } from "@apiplat/catalogue";
import { serviceDatabase } from "@apiplat/service-kit";
import { prefixesAround } from "@apiplat/testing";
import { describeSearchBounds } from "@apiplat/testing/search-bounds-suite";
import { describe, expect, it } from "vitest";
import service from "../src/service.js";
import { startVideo } from "./helpers.js";

const { search, started } = describeSearchBounds({
  start: startVideo,
  route: "/search?limit=100",
  bounds: { ...QUERY_BOUNDS, maxLength: 300 },
  exclusion: { word: "music", prefix: "vid" },
});

describe("GET /search bounds of q", () => {
  it("refuses a prefix standing for more words of the catalogue than a search expands, and answers one that stands for fewer", async () => {
    const db = await serviceDatabase(service, started().platform.deps.db);
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
