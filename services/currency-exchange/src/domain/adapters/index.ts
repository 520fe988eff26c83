import { FeedFormatError, type RateTable, type SourceId } from "../types.js";
import { looksLikeEcb, parseEcb } from "./ecb.js";
import { nbpTableLetter, parseNbp } from "./nbp.js";
import { looksLikeBancaDItalia, parseBancaDItalia } from "./bancaditalia.js";
import { looksLikeCbr, parseCbr } from "./cbr.js";
import { looksLikeBoc, parseBoc } from "./boc.js";

interface SourceInfo {
  id: SourceId;
  name: string;
  home: string;
  /** Where the live feed is published; `{date}` is replaced by a YYYY-MM-DD day (Banca d'Italia wants one). */
  defaultUrl: string;
  /** When the bank publishes (for people: /sources and the README). */
  publishes: string;
  /** The Accept header the feed needs (Banca d'Italia answers JSON unless asked for CSV). */
  accept: string;
  parse(body: Buffer): RateTable[];
}

/** Order = priority when two sources tie on date (see rates.ts for the whole rule). */
export const SOURCES: readonly SourceInfo[] = [
  {
    id: "ecb",
    name: "European Central Bank euro foreign exchange reference rates",
    home: "EUR",
    defaultUrl: "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml",
    publishes: "around 15:00 UTC (16:00 CET) on TARGET working days",
    accept: "text/xml",
    parse: parseEcb,
  },
  {
    id: "bdi",
    name: "Banca d'Italia daily exchange rates against the euro",
    home: "EUR",
    defaultUrl: "https://tassidicambio.bancaditalia.it/terzevalute-wf-web/rest/v1.0/dailyRates?currencyIsoCode=EUR&lang=en&referenceDate={date}",
    publishes: "in the afternoon (CET) of each Italian working day",
    accept: "text/csv",
    parse: parseBancaDItalia,
  },
  {
    id: "nbp-a",
    name: "Narodowy Bank Polski table A (daily average rates)",
    home: "PLN",
    defaultUrl: "https://api.nbp.pl/api/exchangerates/tables/A/?format=json",
    publishes: "between 11:45 and 12:15 CET on Polish working days",
    accept: "application/json",
    parse: (body) => parseNbp(body, "A"),
  },
  {
    id: "boc",
    name: "Bank of Canada daily exchange rates (Valet FX_RATES_DAILY)",
    home: "CAD",
    defaultUrl: "https://www.bankofcanada.ca/valet/observations/group/FX_RATES_DAILY/json?recent=5",
    publishes: "by 16:30 ET on Canadian business days",
    accept: "application/json",
    parse: parseBoc,
  },
  {
    id: "nbp-b",
    name: "Narodowy Bank Polski table B (weekly average rates of less-traded currencies)",
    home: "PLN",
    defaultUrl: "https://api.nbp.pl/api/exchangerates/tables/B/?format=json",
    publishes: "Wednesdays between 11:45 and 12:15 CET",
    accept: "application/json",
    parse: (body) => parseNbp(body, "B"),
  },
  {
    id: "cbr",
    name: "Bank of Russia official exchange rates (XML_daily)",
    home: "RUB",
    defaultUrl: "https://www.cbr.ru/scripts/XML_daily.asp",
    publishes: "daily in the afternoon (Moscow time), effective the next day",
    accept: "text/xml",
    parse: parseCbr,
  },
];

export function sourceInfo(id: SourceId): SourceInfo {
  const info = SOURCES.find((s) => s.id === id);
  if (!info) throw new Error(`unknown source ${id}`);
  return info;
}

/** Recognises a feed file by its content, so downloaded files can be ingested whatever their names. */
export function detectSource(body: Buffer): SourceId | null {
  const head = body.subarray(0, 4096).toString("utf8");
  if (looksLikeCbr(body)) return "cbr";
  if (looksLikeEcb(head)) return "ecb";
  if (looksLikeBancaDItalia(head)) return "bdi";
  const letter = nbpTableLetter(head);
  if (letter) return letter === "A" ? "nbp-a" : "nbp-b";
  if (looksLikeBoc(body.toString("utf8"))) return "boc";
  return null;
}

export function parseFeed(source: SourceId, body: Buffer): RateTable[] {
  const tables = sourceInfo(source)
    .parse(body)
    .filter((t) => t.rates.length > 0);
  if (tables.length === 0) throw new FeedFormatError(`${source}: the feed holds no rates`);
  return tables;
}
