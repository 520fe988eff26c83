/**
 * The search held in memory follows the catalogue: concurrent searches share one version read, and an ingestion
 * that changes the catalogue shows in the very next search. (Its trigram scores are checked against pg_trgm itself
 * in trigrams.test.ts; its answers over HTTP in search.test.ts.)
 */
import { runIngestions } from "@apiplat/catalogue";
import type { StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { datasetSources } from "../src/ingest/datasets.js";
import { sharedFreshReads } from "../src/store/company-snapshot.js";
import { datasetsDir, getter, secRowOf, startCompanyData, tenDigits } from "./helpers.js";

let started: StartedService;

beforeAll(async () => {
  started = await startCompanyData();
}, 120_000);
afterAll(() => started.close());

describe("the search in memory", () => {
  it("shares version reads between concurrent searches, each read beginning after its caller asked", async () => {
    let reads = 0;
    const releases: (() => void)[] = [];
    const read = sharedFreshReads(() => new Promise<number>((resolve) => releases.push(() => resolve(++reads))));
    const first = read();
    const [second, third] = [read(), read()];
    expect(releases).toHaveLength(1);
    releases[0]();
    expect(await first).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(releases).toHaveLength(2);
    releases[1]();
    expect([await second, await third]).toEqual([2, 2]);
  });

  it("sees an ingestion that changes the catalogue in the next search", async () => {
    const headers = { ...(await started.subscribe("PRO")).headers, "cache-control": "no-cache" };
    const get = getter(started, headers);
    const apple = tenDigits(secRowOf("AAPL")[0]);
    const appleRank = async () => {
      const { data } = await get("/search?name=apple");
      expect(data.companies[0].id).toBe(apple);
      return data.companies[0].fortune_rank;
    };
    const rank = await appleRank();
    expect(rank).toBeGreaterThan(0);

    const db = started.platform.deps.db;
    const fortune = datasetSources().filter((source) => source.name === "fortune-1000");
    await db.query("DELETE FROM fortune_companies WHERE company = 'Apple'");
    await runIngestions(
      db,
      datasetSources().filter((source) => source.name === "pdl-sample"),
      { datasetsDir, now: () => new Date() },
    );
    expect(await appleRank()).toBeNull();

    await runIngestions(db, fortune, { datasetsDir, now: () => new Date() });
    expect(await appleRank()).toBe(rank);
  }, 120_000);
});
