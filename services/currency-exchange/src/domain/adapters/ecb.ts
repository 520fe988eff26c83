import { XMLParser } from "fast-xml-parser";
import { parse as parseCsv } from "csv-parse/sync";
import { FeedFormatError, type RateTable } from "../types.js";
import { asArray, fiatRate, isoDate } from "./common.js";

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", removeNSPrefix: true, parseAttributeValue: false, parseTagValue: false });

interface CubeNode {
  time?: string;
  currency?: string;
  rate?: string;
  Cube?: CubeNode | CubeNode[];
}

/** eurofxref-daily.xml, eurofxref-hist-90d.xml and eurofxref-hist.xml: <Cube time><Cube currency rate/></Cube>. */
function parseEcbXml(text: string): RateTable[] {
  const doc = xml.parse(text) as { Envelope?: { Sender?: { name?: string }; Cube?: CubeNode } };
  if (doc.Envelope?.Sender?.name !== "European Central Bank") throw new FeedFormatError("ECB XML: the sender is not the European Central Bank");
  const days = asArray(doc.Envelope?.Cube?.Cube);
  if (days.length === 0) throw new FeedFormatError("ECB XML: no <Cube time=...> element");
  return days.map((day) => {
    const seen = new Set<string>();
    const rates = asArray(day.Cube).flatMap((cube) => fiatRate(seen, cube.currency, cube.rate) ?? []);
    return { source: "ecb", date: isoDate(day.time, "ECB XML"), home: "EUR", quoteStyle: "foreign_per_home", rates };
  });
}

/** eurofxref-hist.csv (inside eurofxref-hist.zip): Date,USD,JPY,...; "N/A" where a currency was not quoted. */
function parseEcbCsv(text: string): RateTable[] {
  const rows = parseCsv(text.replace(/^\uFEFF/, ""), { skip_empty_lines: true, relax_column_count: true, trim: true }) as string[][];
  const header = rows[0];
  if (!header || !ECB_CSV_HEADER.test(header.slice(0, 3).join(",") + ",")) throw new FeedFormatError("ECB CSV: the header must start Date,USD,JPY");
  return rows.slice(1).map((row) => {
    const seen = new Set<string>();
    const rates = header.slice(1).flatMap((code, i) => (code ? (fiatRate(seen, code, row[i + 1]) ?? []) : []));
    return { source: "ecb", date: isoDate(row[0], "ECB CSV"), home: "EUR", quoteStyle: "foreign_per_home", rates };
  });
}

export function parseEcb(body: Buffer): RateTable[] {
  const text = body.toString("utf8");
  return text.trimStart().startsWith("<") ? parseEcbXml(text) : parseEcbCsv(text);
}

/** eurofxref-hist.csv starts Date,USD,JPY,BGN,...; other banks' CSVs also start with a Date column. */
const ECB_CSV_HEADER = /^\uFEFF?Date,USD,JPY,/;

export function looksLikeEcb(text: string): boolean {
  return (/^\s*</.test(text) && text.includes("ecb.int/vocabulary/2002-08-01/eurofxref")) || ECB_CSV_HEADER.test(text);
}
