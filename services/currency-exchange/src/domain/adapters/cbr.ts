import { XMLParser } from "fast-xml-parser";
import { FeedFormatError, type RateTable } from "../types.js";
import { asArray, fiatRate, isoDate } from "./common.js";

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", parseAttributeValue: false, parseTagValue: false });

interface Valute {
  ID?: string;
  CharCode?: string;
  Nominal?: string;
  Value?: string;
}

/** The declared encoding of an XML document (CBR publishes windows-1251). */
function decodeXml(body: Buffer): string {
  const head = body.subarray(0, 200).toString("latin1");
  const encoding = /encoding=["']([\w-]+)["']/i.exec(head)?.[1] ?? "utf-8";
  return new TextDecoder(encoding.toLowerCase()).decode(body);
}

/**
 * Bank of Russia XML_daily.asp: <ValCurs Date="dd.mm.yyyy"><Valute><CharCode/><Nominal/><Value>12,3456</Value>.
 * Value is RUB for Nominal units; Date is the day the official rates take effect.
 */
export function parseCbr(body: Buffer): RateTable[] {
  const doc = xml.parse(decodeXml(body)) as { ValCurs?: { Date?: string; Valute?: Valute | Valute[] } };
  const valCurs = doc.ValCurs;
  if (!valCurs) throw new FeedFormatError("CBR: no <ValCurs> element");
  const match = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(valCurs.Date ?? "");
  if (!match) throw new FeedFormatError(`CBR: bad ValCurs Date ${JSON.stringify(valCurs.Date)}`);
  const date = isoDate(`${match[3]}-${match[2]}-${match[1]}`, "CBR");
  const valutes = asArray(valCurs.Valute);
  // Other banks (Moldova, Tajikistan) publish the same <ValCurs> layout for their own currencies.
  if (valutes.some((v) => !CBR_VALUTE_ID.test(v.ID ?? ""))) throw new FeedFormatError("CBR: Valute IDs are not the Bank of Russia's (R01010, ...)");
  const seen = new Set<string>();
  const rates = valutes.flatMap((v) => fiatRate(seen, v.CharCode, v.Value, Number(v.Nominal)) ?? []);
  return [{ source: "cbr", date, home: "RUB", quoteStyle: "home_per_foreign", rates }];
}

const CBR_VALUTE_ID = /^R\d{5}[A-Z]?$/;

export function looksLikeCbr(body: Buffer): boolean {
  const head = body.subarray(0, 600).toString("latin1");
  return /<ValCurs Date="\d{2}\.\d{2}\.\d{4}" name="Foreign Currency Market">/.test(head) && /<Valute ID="R\d{5}/.test(head);
}
