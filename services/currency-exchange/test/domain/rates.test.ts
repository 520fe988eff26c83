import { beforeAll, describe, expect, it } from "vitest";
import { parseFeed } from "../../src/domain/adapters/index.js";
import { crossRate, RateBook } from "../../src/domain/rates.js";
import { convert, crossRates } from "../../src/domain/exchange.js";
import type { RateTable, SourceId } from "../../src/domain/types.js";
import { feed, FEED_FILES } from "../feeds.js";

let book: RateBook;

beforeAll(() => {
  const files: Array<[SourceId, string]> = [
    ["ecb", FEED_FILES.ecb],
    ["nbp-a", FEED_FILES.nbpA],
    ["nbp-b", FEED_FILES.nbpB],
    ["bdi", FEED_FILES.bdi],
    ["cbr", FEED_FILES.cbr],
    ["boc", FEED_FILES.boc],
  ];
  book = new RateBook(files.flatMap(([source, file]) => parseFeed(source, feed(file))));
});

describe("selection and rebasing on 2026-03-18 (real feeds)", () => {
  it("takes the ECB rate for a currency the ECB quotes", () => {
    const usd = book.quotesAsOf("2026-03-18", true).get("USD");
    expect(usd?.source).toBe("ecb");
    expect(usd?.date).toBe("2026-03-18");
    expect(usd?.perEur.toString()).toBe("1.15");
  });

  it("computes USD->JPY via EUR to 12 significant digits (183.49 / 1.15)", () => {
    const quotes = book.quotesAsOf("2026-03-18", true);
    expect(crossRate(quotes.get("USD")!, quotes.get("JPY")!)).toBe("159.556521739");
  });

  it("rebases NBP table B through NBP table A's euro rate of the same day", () => {
    const quotes = book.quotesAsOf("2026-03-18", true);
    const afn = quotes.get("AFN")!;
    expect([afn.source, afn.date]).toEqual(["nbp-b", "2026-03-18"]);
    expect(crossRate("EUR", afn)).toBe("73.7951337778"); // 4.2613 PLN/EUR (table A) / 0.057745 PLN/AFN (table B)
    expect(crossRate(quotes.get("USD")!, afn)).toBe("64.1696815459");
  });

  it("prefers a bank's quote of its own currency on the same date (RUB from the Bank of Russia, not the Bank of Canada)", () => {
    const rub = book.quotesAsOf("2026-03-18", true).get("RUB")!;
    expect([rub.source, rub.date, rub.perEur.toString()]).toEqual(["cbr", "2026-03-18", "93.1557"]);
  });

  it("breaks a same-date tie by source order (ETB: NBP table B before the Bank of Russia)", () => {
    const etb = book.quotesAsOf("2026-03-18", true).get("ETB")!;
    expect(etb.source).toBe("nbp-b");
    expect(crossRate("EUR", etb)).toBe("179.801687764");
  });

  it("does not use a table older than 14 days for a historical date", () => {
    const onMarch1 = book.quotesAsOf("2026-03-01", true);
    expect(onMarch1.get("AOA")).toBeUndefined(); // only Banca d'Italia (2026-02-11) quotes it
    const onFeb20 = book.quotesAsOf("2026-02-20", true);
    expect(onFeb20.get("AOA")?.source).toBe("bdi");
  });

  it("covers 150+ currencies for the latest date, with no withdrawn currency", () => {
    const latest = book.quotesAsOf("2026-11-22", false);
    expect(latest.size + 1).toBeGreaterThanOrEqual(150); // + EUR, the pivot
    expect(latest.has("BGN")).toBe(false);
    expect(latest.get("USD")?.date).toBe("2026-04-13");
    expect(book.quotesAsOf("2025-12-31", true).get("BGN")?.perEur.toString()).toBe("1.9558");
  });
});

describe("views", () => {
  it("filters symbols, sorts them and reports the newest and oldest dates used", () => {
    const quotes = book.quotesAsOf("2026-03-18", true);
    const view = crossRates(quotes, "USD", ["JPY", "EUR", "AFN"]);
    expect(view).toEqual({
      base: "USD",
      date: "2026-03-18",
      oldest_date: "2026-03-18",
      rates: { AFN: 64.1696815459, EUR: 0.869565217391, JPY: 159.556521739 },
      provenance: {
        AFN: { source: "nbp-b", date: "2026-03-18" },
        JPY: { source: "ecb", date: "2026-03-18" },
        USD: { source: "ecb", date: "2026-03-18" },
      },
    });
  });

  it("converts with decimal arithmetic: amount x displayed rate, rounded half up", () => {
    const quotes = book.quotesAsOf("2026-03-18", true);
    expect(convert(quotes, "EUR", "USD", "0.1", 2).result).toBe("0.12"); // 0.115 -> 0.12
    expect(convert(quotes, "USD", "JPY", "100", 0)).toMatchObject({ rate: "159.556521739", result: "15956" });
    const huge = convert(quotes, "EUR", "USD", "999999999999999999.999999999999", 12);
    expect(huge.result).toBe("1149999999999999999.999999999999");
    expect(convert(quotes, "EUR", "EUR", "5", 2)).toMatchObject({ rate: "1", result: "5.00" });
  });
});

describe("outliers (synthetic tables)", () => {
  const table = (source: SourceId, home: string, value: string, date = "2026-01-05"): RateTable => ({
    source,
    date,
    home,
    quoteStyle: "foreign_per_home",
    rates: [{ currency: "XAF", value, units: 1 }, ...(home === "EUR" ? [] : [{ currency: "EUR", value: "1", units: 1 }])],
  });

  it("drops a rate more than 5% from the median of three, then keeps the newest", () => {
    const synthetic = new RateBook([table("bdi", "EUR", "655.957"), table("nbp-b", "PLN", "656", "2026-01-05"), table("cbr", "RUB", "700", "2026-01-06")]);
    const xaf = synthetic.quotesAsOf("2026-01-06", true).get("XAF")!;
    expect([xaf.source, xaf.perEur.toString()]).toEqual(["bdi", "655.957"]);
  });

  it("compares only rates published within 7 days of the newest (a month-old median is no reference)", () => {
    const synthetic = new RateBook([
      table("bdi", "EUR", "655.957", "2026-01-05"),
      table("nbp-b", "PLN", "656", "2026-01-05"),
      table("cbr", "RUB", "700", "2026-01-13"),
    ]);
    expect(synthetic.quotesAsOf("2026-01-13", true).get("XAF")?.source).toBe("cbr");
  });

  it("keeps the newest of two disagreeing rates", () => {
    const synthetic = new RateBook([table("bdi", "EUR", "655.957"), table("cbr", "RUB", "700", "2026-01-06")]);
    expect(synthetic.quotesAsOf("2026-01-06", true).get("XAF")?.source).toBe("cbr");
  });
});
