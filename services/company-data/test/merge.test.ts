/** The pure rules: name keys, domains, ids and how records merge. */
import { describe, expect, it } from "vitest";
import { InvalidDomain, domainCandidates, normalizeDomain } from "../src/domain/domains.js";
import { parseCompanyId } from "../src/domain/ids.js";
import { mergeCompanies } from "../src/domain/merge.js";
import type { FortuneRecord } from "../src/domain/source-records.js";
import { hasDistinctiveWord, nameKey, slugOf, tickerKey } from "../src/domain/names.js";

describe("name keys", () => {
  it("ignore legal suffixes, case, punctuation, accents and EDGAR's state tags", () => {
    expect(nameKey("Apple Inc.")).toBe("apple");
    expect(nameKey("APPLE INC")).toBe("apple");
    expect(nameKey("MURPHY OIL CORP /DE")).toBe("murphy oil");
    expect(nameKey("Johnson & Johnson")).toBe("johnson and johnson");
    expect(nameKey("Foo Holdings Co., Ltd.")).toBe("foo holdings");
    expect(nameKey("Acme L.L.C.")).toBe("acme");
    expect(nameKey("Nestlé S.A.")).toBe("nestle");
    expect(nameKey("The Home Depot, Inc.")).toBe("home depot");
    expect(nameKey("Domo (company)")).toBe("domo");
    expect(hasDistinctiveWord("Co., Ltd.")).toBe(false);
    expect(slugOf("Tata Consultancy Services")).toBe("tata-consultancy-services");
    expect(slugOf("1-800 Inc")).toBe("co-1-800");
    expect(tickerKey("brk.b")).toBe(tickerKey("BRK-B"));
  });
});

describe("domains", () => {
  it("come down to the host without www., and refuse what is not a domain", () => {
    expect(normalizeDomain("https://www.Apple.com:443/iphone?x=1#y")).toBe("apple.com");
    expect(normalizeDomain("xn--mnchen-3ya.de")).toBe("xn--mnchen-3ya.de");
    expect(normalizeDomain("münchen.de")).toBe("xn--mnchen-3ya.de");
    expect(domainCandidates("a.b.example.com")).toEqual(["a.b.example.com", "b.example.com", "example.com"]);
    for (const bad of ["", "localhost", "10.0.0.1", "[::1]", "mailto:a@b.com", "a_b.com"]) expect(() => normalizeDomain(bad), bad).toThrow(InvalidDomain);
  });
});

describe("ids", () => {
  it("read CIKs and slugs", () => {
    expect(parseCompanyId("320193")).toEqual({ kind: "cik", cik: 320193 });
    expect(parseCompanyId("0000320193")).toEqual({ kind: "cik", cik: 320193 });
    expect(parseCompanyId("ty-ku")).toEqual({ kind: "slug", slug: "ty-ku" });
    for (const bad of ["0", "12345678901", "1-800", "Apple", "a--b"]) expect(parseCompanyId(bad), bad).toBeNull();
  });
});

const fortune = (rank: number, company: string, ticker: string | null, website: string | null): FortuneRecord => ({
  rank,
  company,
  ticker,
  website,
  revenue_musd: null,
  profit_musd: null,
  employees: null,
  sector: null,
  city: null,
  state: null,
  ceo: null,
  market_cap_musd: null,
});

describe("merging", () => {
  it("joins by ticker, then by an unambiguous name; a second record of one source gets a profile of its own", () => {
    const profiles = mergeCompanies({
      secTickers: [
        { cik: 1, ticker: "AAA", name: "Alpha Corp", exchange: "NYSE", position: 1, source: "sec-tickers" },
        { cik: 2, ticker: "BBB", name: "Beta Inc", exchange: "Nasdaq", position: 2, source: "sec-tickers" },
        { cik: 3, ticker: "GGG", name: "Gamma Ltd", exchange: null, position: 3, source: "sec-tickers" },
        { cik: 4, ticker: "GGH", name: "GAMMA PLC", exchange: null, position: 4, source: "sec-tickers" },
      ],
      submissions: [],
      fortune: [fortune(1, "Alpha", "AAA", null), fortune(2, "Beta", null, null), fortune(3, "Gamma", null, null), fortune(4, "Alpha Two", "AAA", null)],
      dbpedia: [],
      pdl: [],
    });
    const byName = Object.fromEntries(profiles.map((p) => [p.name, p]));
    expect(byName.Alpha).toMatchObject({ id: "0000000001", matched: [{ by: "cik" }, { source: "fortune-1000", by: "ticker" }] });
    expect(byName.Beta).toMatchObject({ id: "0000000002", matched: [{ by: "cik" }, { source: "fortune-1000", by: "name" }] });
    // "gamma" names two SEC companies: ambiguous, so the Fortune row stands alone.
    expect(byName.Gamma).toMatchObject({ id: "gamma", cik: null, matched: [{ by: "own" }] });
    expect(byName["Alpha Two"]).toMatchObject({ id: "alpha-two", matched: [{ by: "own" }] });
  });
});
