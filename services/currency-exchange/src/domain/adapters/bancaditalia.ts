import { parse as parseCsv } from "csv-parse/sync";
import { FeedFormatError, type RateTable } from "../types.js";
import { fiatRate, isoDate } from "./common.js";

const HEADER = ["Country", "Currency", "ISO Code", "UIC Code", "Rate", "Rate convention", "Reference date (CET)"];

/**
 * Banca d'Italia dailyRates CSV (tassidicambio.bancaditalia.it .../dailyRates?currencyIsoCode=EUR&lang=en):
 * one row per country, Rate = foreign currency amount for 1 euro, "N.A." when not quoted, then "#" notes.
 */
export function parseBancaDItalia(body: Buffer): RateTable[] {
  const rows = parseCsv(body.toString("utf8").replace(/^\uFEFF/, ""), {
    comment: "#",
    skip_empty_lines: true,
    relax_column_count: true,
    trim: true,
  }) as string[][];
  const header = rows[0];
  if (!header || HEADER.some((name, i) => header[i] !== name)) throw new FeedFormatError("Banca d'Italia: unexpected CSV header");
  const byDate = new Map<string, { seen: Set<string>; table: RateTable }>();
  for (const row of rows.slice(1)) {
    if (row.length < HEADER.length) continue;
    if (!row[5].includes("for 1 Euro")) throw new FeedFormatError(`Banca d'Italia: unsupported rate convention "${row[5]}"`);
    const date = isoDate(row[6], "Banca d'Italia");
    let entry = byDate.get(date);
    if (!entry) {
      entry = { seen: new Set(), table: { source: "bdi", date, home: "EUR", quoteStyle: "foreign_per_home", rates: [] } };
      byDate.set(date, entry);
    }
    const rate = fiatRate(entry.seen, row[2], row[4]);
    if (rate) entry.table.rates.push(rate);
  }
  return [...byDate.values()].map((e) => e.table);
}

export function looksLikeBancaDItalia(text: string): boolean {
  return text.replace(/^\uFEFF/, "").startsWith("Country,Currency,ISO Code");
}
