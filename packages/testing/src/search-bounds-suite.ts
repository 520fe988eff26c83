/**
 * The search-bounds test of a catalogue service in one call: every case of searchBoundCases over HTTP, and an excluded
 * prefix excluding. Apart from the package's index because it imports vitest, which the scripts that use
 * @apiplat/testing outside a test (bench/) do not load.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchBoundCases, type SearchBoundsUnderTest } from "./search-bounds.js";
import type { StartedService } from "./start-service.js";

export interface SearchBoundsSuite {
  /** Starts the service with its catalogue loaded. */
  start: () => Promise<StartedService>;
  /** The search route with its largest page, e.g. "/search?limit=100"; q is appended. */
  route: string;
  bounds: SearchBoundsUnderTest;
  /** A word and a prefix both found in the catalogue: `word -prefix*` and `word prefix*` together make `word`. */
  exclusion: { word: string; prefix: string };
  /** Where the answer's data gives the number of results; data.total_results unless told. */
  totalOf?: (data: any) => number;
}

export interface SearchBoundsClient {
  /** GET the route with `q`, past the answer cache. */
  search(q: string): Promise<{ status: number; body: any }>;
  /** The service started for the file (after beforeAll). */
  started(): StartedService;
}

/** Starts the service for the file (beforeAll, closed in afterAll) and describes "GET /search bounds of q". */
export function describeSearchBounds(suite: SearchBoundsSuite): SearchBoundsClient {
  const totalOf = suite.totalOf ?? ((data) => data.total_results);
  let started: StartedService;
  let headers: Record<string, string>;

  beforeAll(async () => {
    started = await suite.start();
    headers = (await started.subscribe("PRO")).headers;
  });
  afterAll(() => started.close());

  async function search(q: string) {
    const res = await started.app.inject({
      method: "GET",
      url: `${suite.route}&q=${encodeURIComponent(q)}`,
      headers: { ...headers, "cache-control": "no-cache" },
    });
    return { status: res.statusCode, body: res.json() };
  }

  const { word, prefix } = suite.exclusion;
  describe("GET /search bounds of q", () => {
    it.each(searchBoundCases(suite.bounds))("$name: $status", async ({ q, status, issue }) => {
      const { status: answered, body } = await search(q);
      expect(answered).toBe(status);
      if (issue) {
        expect(body.error.details).toEqual([{ field: "q", issue: expect.stringMatching(issue) }]);
      }
    });

    it(`excludes an excluded prefix: ${word} = ${word} -${prefix}* plus ${word} ${prefix}*`, async () => {
      const all = totalOf((await search(word)).body.data);
      const without = totalOf((await search(`${word} -${prefix}*`)).body.data);
      const withIt = totalOf((await search(`${word} ${prefix}*`)).body.data);
      expect(without).toBeGreaterThan(0);
      expect(withIt).toBeGreaterThan(0);
      expect(without + withIt).toBe(all);
    });
  });

  return { search, started: () => started };
}
