import { describe, expect, it } from "vitest";
import { detectSource, parseFeed } from "../../src/domain/adapters/index.js";
import { FeedFormatError } from "../../src/domain/types.js";
import { feed, FEED_FILES } from "../feeds.js";

const rate = (tables: ReturnType<typeof parseFeed>, date: string, code: string) => tables.find((t) => t.date === date)?.rates.find((r) => r.currency === code);

describe("ECB adapter", () => {
  it("parses the daily eurofxref XML: 30 currencies, value kept as published", () => {
    const tables = parseFeed("ecb", feed(FEED_FILES.ecbDaily));
    expect(tables).toHaveLength(1);
    expect(tables[0]).toMatchObject({ source: "ecb", date: "2024-02-27", home: "EUR", quoteStyle: "foreign_per_home" });
    expect(tables[0].rates).toHaveLength(30);
    expect(rate(tables, "2024-02-27", "GBP")).toEqual({ currency: "GBP", value: "0.85620", units: 1 });
    expect(rate(tables, "2024-02-27", "USD")?.value).toBe("1.0856");
  });

  it("parses the 90-day XML into one table per day", () => {
    const tables = parseFeed("ecb", feed(FEED_FILES.ecb90d));
    expect(tables).toHaveLength(61);
    expect(rate(tables, "2024-02-26", "USD")?.value).toBe("1.0852");
  });

  it("parses the history CSV, skipping N/A cells and keeping legacy codes with their dates", () => {
    const tables = parseFeed("ecb", feed(FEED_FILES.ecb));
    expect(tables).toHaveLength(6983);
    expect(rate(tables, "2026-04-13", "USD")?.value).toBe("1.1684");
    expect(rate(tables, "2026-04-13", "BGN")).toBeUndefined();
    expect(rate(tables, "2026-03-18", "JPY")?.value).toBe("183.49");
    expect(rate(tables, "1999-01-04", "CYP")?.value).toBe("0.58231");
  });
});

describe("NBP adapters", () => {
  it("table A: PLN per unit, XDR dropped", () => {
    const tables = parseFeed("nbp-a", feed(FEED_FILES.nbpA));
    expect(tables).toHaveLength(18);
    const last = tables[tables.length - 1];
    expect(last).toMatchObject({ source: "nbp-a", date: "2026-03-25", home: "PLN", quoteStyle: "home_per_foreign" });
    expect(last.rates).toHaveLength(31);
    expect(rate(tables, "2026-03-25", "EUR")).toEqual({ currency: "EUR", value: "4.2692", units: 1 });
    expect(rate(tables, "2026-03-25", "XDR")).toBeUndefined();
  });

  it("table B: 116 less-traded currencies per weekly table", () => {
    const tables = parseFeed("nbp-b", feed(FEED_FILES.nbpB));
    expect(tables.map((t) => t.date)).toEqual(["2026-03-04", "2026-03-11", "2026-03-18", "2026-03-25"]);
    expect(tables[3].rates).toHaveLength(116);
    expect(rate(tables, "2026-03-25", "AFN")?.value).toBe("0.057274");
    expect(rate(tables, "2026-03-25", "ZWG")?.value).toBe("0.1435");
  });

  it("refuses a table B payload configured as table A", () => {
    expect(() => parseFeed("nbp-a", feed(FEED_FILES.nbpB))).toThrow(FeedFormatError);
  });
});

describe("Banca d'Italia adapter", () => {
  it("parses ~150 currencies per euro, skipping N.A., XDR and repeated XOF rows", () => {
    const tables = parseFeed("bdi", feed(FEED_FILES.bdi));
    expect(tables).toHaveLength(1);
    expect(tables[0]).toMatchObject({ source: "bdi", date: "2026-02-11", home: "EUR", quoteStyle: "foreign_per_home" });
    expect(tables[0].rates).toHaveLength(149);
    expect(rate(tables, "2026-02-11", "AFN")?.value).toBe("75.6731");
    expect(rate(tables, "2026-02-11", "XOF")?.value).toBe("655.957");
    expect(rate(tables, "2026-02-11", "RUB")).toBeUndefined();
    expect(rate(tables, "2026-02-11", "XDR")).toBeUndefined();
  });
});

describe("Bank of Russia adapter", () => {
  it("decodes windows-1251, decimal commas and nominals", () => {
    const tables = parseFeed("cbr", feed("cbr-xml-daily-2026-04-25.xml"));
    expect(tables).toHaveLength(1);
    expect(tables[0]).toMatchObject({ source: "cbr", date: "2026-04-25", home: "RUB", quoteStyle: "home_per_foreign" });
    expect(tables[0].rates).toHaveLength(53);
    expect(rate(tables, "2026-04-25", "JPY")).toEqual({ currency: "JPY", value: "47.2636", units: 100 });
    expect(rate(tables, "2026-04-25", "EUR")?.value).toBe("88.2826");
  });
});

describe("Bank of Canada adapter", () => {
  it("parses Valet observations, one table per date", () => {
    const tables = parseFeed("boc", feed(FEED_FILES.boc));
    expect(tables.map((t) => t.date)).toEqual(["2026-03-12", "2026-03-13", "2026-03-16", "2026-03-17", "2026-03-18"]);
    expect(tables[2].rates).toHaveLength(23);
    expect(rate(tables, "2026-03-16", "USD")).toEqual({ currency: "USD", value: "1.3675", units: 1 });
    expect(rate(tables, "2026-03-16", "JPY")?.value).toBe("0.008590");
  });

  it("keeps the per-series dates of a recent=1 answer (discontinued series dated 2019-12-31)", () => {
    const tables = parseFeed("boc", feed("boc-valet-fx-rates-daily-recent-2026-03-13.json"));
    expect(tables.map((t) => [t.date, t.rates.length])).toEqual([
      ["2019-12-31", 3],
      ["2026-03-13", 23],
    ]);
  });
});

describe("feed detection", () => {
  it.each([
    [FEED_FILES.ecb, "ecb"],
    [FEED_FILES.ecbDaily, "ecb"],
    [FEED_FILES.nbpA, "nbp-a"],
    [FEED_FILES.nbpB, "nbp-b"],
    [FEED_FILES.bdi, "bdi"],
    [FEED_FILES.cbr, "cbr"],
    [FEED_FILES.boc, "boc"],
    ["cnb-daily-year-2026-01-02_2026-04-02.json", null],
    ["SOURCE.md", null],
    // Same layouts, other banks: Moldova and Tajikistan use <ValCurs>, Botswana a CSV starting with Date.
    ["bnm-moldova-official-exchange-rates-2026-04-08.xml", null],
    ["nbt-export-xml-2026-05-20.xml", null],
    ["bob-exchange-rates-2001-01-03_2026-03-19.csv", null],
  ])("%s -> %s", (file, source) => {
    expect(detectSource(feed(file))).toBe(source);
  });

  it("refuses another bank's feed configured as the Bank of Russia's", () => {
    expect(() => parseFeed("cbr", feed("bnm-moldova-official-exchange-rates-2026-04-08.xml"))).toThrow("Valute IDs are not the Bank of Russia's");
  });

  it("rejects bodies that hold no rates", () => {
    expect(() => parseFeed("cbr", Buffer.from('<ValCurs Date="17.03.2026"></ValCurs>'))).toThrow(FeedFormatError);
    expect(() => parseFeed("nbp-a", Buffer.from("<html>maintenance</html>"))).toThrow(FeedFormatError);
  });
});
