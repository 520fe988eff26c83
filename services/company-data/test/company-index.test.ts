/**
 * The search held in memory against the SQL search it replaced, on the same ingested catalogue: hundreds of random
 * filter combinations (seeded) must give the same totals, pages, order and match scores. Then the memory follows
 * the catalogue: an ingestion that changes it shows in the very next search.
 */
import { runIngestions, type Page } from "@apiplat/catalogue";
import { seededRandom, type StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { datasetSources } from "../src/ingest/datasets.js";
import { searchCompanies, type SearchFilters } from "../src/store/companies.js";
import { companySearchReader, sharedFreshReads } from "../src/store/company-snapshot.js";
import { datasetsDir, getter, secRowOf, startCompanyData, tenDigits } from "./helpers.js";

let started: StartedService;

beforeAll(async () => {
  started = await startCompanyData();
}, 120_000);
afterAll(() => started.close());

const NAMES = [
  "apple",
  "Aple Inc",
  "microsoft corp",
  "jonson & jonson",
  "goldman",
  "goldman sachs",
  "exxon",
  "walmart",
  "berkshire hathaway",
  "Tesla, Inc.",
  "intel",
  "general motors co",
  "coca cola",
  "procter gamble",
  "bank of america",
  "bank",
  "american",
  "first",
  "holdings",
  "capital",
  "energy",
  "3m",
  "21st century",
  "2020",
  "a",
  "co op",
  "international business machines",
  "zzqxqzz",
  "Nestlé",
  "東京",
];

interface Vocabulary {
  names: string[];
  tickers: string[];
  industries: string[];
  sectors: string[];
}

async function vocabulary(): Promise<Vocabulary> {
  const { rows } = await started.platform.deps.db.query<{ name: string; tickers: string[]; industry: string | null; sector: string | null }>(
    "SELECT name, ticker_keys AS tickers, industry, sector FROM companies",
  );
  const distinct = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => v !== null))];
  return {
    names: rows.map((r) => r.name),
    tickers: rows.flatMap((r) => r.tickers),
    industries: distinct(rows.map((r) => r.industry)),
    sectors: distinct(rows.map((r) => r.sector)),
  };
}

/** A name as someone might type it: whole, its first word, with a letter dropped or doubled. */
function variantOf(name: string, random: () => number): string {
  const roll = random();
  if (roll < 0.3) return name;
  if (roll < 0.5) return name.split(/\s+/)[0];
  const at = Math.floor(random() * name.length);
  return roll < 0.75 ? name.slice(0, at) + name.slice(at + 1) : name.slice(0, at) + name[at] + name.slice(at);
}

function randomSearch(random: () => number, words: Vocabulary): { filters: SearchFilters; page: Page } {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const filters: SearchFilters = {};
  if (random() < 0.6) filters.name = random() < 0.4 ? pick(NAMES) : variantOf(pick(words.names), random);
  if (random() < 0.15) filters.ticker = random() < 0.9 ? pick(words.tickers) : "ZZZZQ";
  if (random() < 0.15) filters.industry = random() < 0.5 ? pick(words.industries) : pick(words.industries).toUpperCase();
  if (random() < 0.3) filters.sector = random() < 0.9 ? pick(words.sectors) : pick(words.sectors).toLowerCase();
  if (random() < 0.3) filters.state = pick(["CA", "tx", "NY", "IL", "DE", "WA", "PR"]);
  if (random() < 0.3) filters.minEmployees = pick([0, 1000, 10_000, 50_000, 200_000]);
  const limit = pick([1, 10, 25, 100]);
  const offset = random() < 0.6 ? 0 : pick([limit, 3 * limit, Math.floor(random() * 400), 5000]);
  return { filters, page: { limit, offset, fingerprint: "test" } };
}

describe("the search in memory", () => {
  it("answers exactly as the SQL search: totals, pages, order and match scores", async () => {
    const db = started.platform.deps.db;
    const words = await vocabulary();
    const search = await companySearchReader(db)();
    const random = seededRandom(20_260_101);
    let found = 0;
    for (let i = 0; i < 400; i++) {
      const { filters, page } = randomSearch(random, words);
      if (filters.name !== undefined && !/[\p{L}\p{N}]/u.test(filters.name)) continue;
      const expected = await searchCompanies(db, filters, page);
      expect(search.search(filters, page), JSON.stringify({ filters, page })).toEqual(expected);
      if (expected.hits.length > 0) found++;
    }
    expect(found).toBeGreaterThan(120);
  }, 300_000);

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
      return data.companies[0].fortune_rank as number | null;
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
