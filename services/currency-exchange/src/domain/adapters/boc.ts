import { FeedFormatError, type PublishedRate, type RateTable } from "../types.js";
import { fiatRate, isoDate } from "./common.js";

const SERIES = /^FX([A-Z]{3})CAD$/;

type Observation = { d?: string } & Record<string, unknown>;

/**
 * Bank of Canada Valet, group FX_RATES_DAILY (…/valet/observations/group/FX_RATES_DAILY/json): observations
 * [{d, FXUSDCAD: {v}}], v = CAD per 1 unit of the currency. Each observation date becomes one table.
 */
export function parseBoc(body: Buffer): RateTable[] {
  let doc: { observations?: Observation[] };
  try {
    doc = JSON.parse(body.toString("utf8"));
  } catch {
    throw new FeedFormatError("Bank of Canada: body is not JSON");
  }
  if (!Array.isArray(doc.observations)) throw new FeedFormatError("Bank of Canada: no observations array");
  return doc.observations.map((obs) => {
    const seen = new Set<string>();
    const rates: PublishedRate[] = [];
    for (const [key, cell] of Object.entries(obs)) {
      const code = SERIES.exec(key)?.[1];
      const rate = code ? fiatRate(seen, code, (cell as { v?: unknown } | null)?.v) : null;
      if (rate) rates.push(rate);
    }
    return { source: "boc", date: isoDate(obs.d, "Bank of Canada"), home: "CAD", quoteStyle: "home_per_foreign", rates } satisfies RateTable;
  });
}

export function looksLikeBoc(text: string): boolean {
  return text.includes('"observations"') && /"FX[A-Z]{3}CAD"/.test(text);
}
