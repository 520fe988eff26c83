import { FeedFormatError, type RateTable } from "../types.js";
import { fiatRate, isoDate } from "./common.js";

interface NbpTable {
  table?: string;
  no?: string;
  effectiveDate?: string;
  rates?: Array<{ code?: string; mid?: number | string }>;
}

/**
 * NBP API tables (api.nbp.pl/api/exchangerates/tables/{A|B}/?format=json): a JSON array of tables, each with
 * effectiveDate and rates [{currency, code, mid}], mid = PLN per 1 unit of the currency.
 */
export function parseNbp(body: Buffer, expectedTable: "A" | "B"): RateTable[] {
  let doc: unknown;
  try {
    doc = JSON.parse(body.toString("utf8"));
  } catch {
    throw new FeedFormatError("NBP: body is not JSON");
  }
  if (!Array.isArray(doc) || doc.length === 0) throw new FeedFormatError("NBP: expected a non-empty array of tables");
  return (doc as NbpTable[]).map((table) => {
    if (table.table !== expectedTable) throw new FeedFormatError(`NBP: expected table ${expectedTable}, got ${String(table.table)}`);
    if (!table.no?.includes("/NBP/")) throw new FeedFormatError(`NBP: table number ${JSON.stringify(table.no)} is not an NBP one`);
    const seen = new Set<string>();
    const rates = (table.rates ?? []).flatMap((r) => fiatRate(seen, r.code, r.mid) ?? []);
    return {
      source: expectedTable === "A" ? "nbp-a" : "nbp-b",
      date: isoDate(table.effectiveDate, "NBP"),
      home: "PLN",
      quoteStyle: "home_per_foreign",
      rates,
    } satisfies RateTable;
  });
}

export function nbpTableLetter(text: string): "A" | "B" | null {
  const match = /^\s*\[\s*\{\s*"table"\s*:\s*"([AB])"/.exec(text);
  return match ? (match[1] as "A" | "B") : null;
}
