/**
 * The fiat currencies this service may quote: ISO 4217 circulating codes (Debian iso-codes 4.15 table,
 * plus XCG and ZWG added in 2024-25) with fund codes, precious metals, SDR (XDR), bond units and test codes
 * left out, plus the legacy codes the ECB history still carries. A code a feed publishes that is not listed
 * here (XDR, XAU, MRO, CNH, ...) is ignored at ingestion.
 */
const CIRCULATING = (
  "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF " +
  "CHF CLP CNY COP CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD " +
  "HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL " +
  "LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR " +
  "PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND " +
  "TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VED VES VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG ZWL"
).split(" ");

/**
 * Currencies replaced by the euro or redenominated: served for dates before their withdrawal only, so that a
 * last ECB quote of the Bulgarian lev (2025-12-31) never shows up as a "latest" rate.
 */
const WITHDRAWN: Record<string, string> = {
  TRL: "2005-01-01",
  ROL: "2005-07-01",
  SIT: "2007-01-01",
  CYP: "2008-01-01",
  MTL: "2008-01-01",
  SKK: "2009-01-01",
  EEK: "2011-01-01",
  LVL: "2014-01-01",
  LTL: "2015-01-01",
  HRK: "2023-01-01",
  BGN: "2026-01-01",
};

const KNOWN = new Set([...CIRCULATING, ...Object.keys(WITHDRAWN)]);

export const PIVOT_CURRENCY = "EUR";

export function isKnownCurrency(code: string): boolean {
  return KNOWN.has(code);
}

/** True when the currency was legal tender on `date` (YYYY-MM-DD). */
export function isInCirculation(code: string, date: string): boolean {
  if (!KNOWN.has(code)) return false;
  const withdrawnOn = WITHDRAWN[code];
  return withdrawnOn === undefined || date < withdrawnOn;
}

const displayNames = new Intl.DisplayNames(["en"], { type: "currency", fallback: "code" });

/** English name from the ICU data bundled with Node (CLDR), e.g. "US Dollar". */
export function currencyName(code: string): string {
  return displayNames.of(code) ?? code;
}

/** ISO 4217 minor units that are not 2 (the list's "minor unit" column; CLDR's display digits differ for some). */
const MINOR_UNITS: Record<string, number> = {
  ...Object.fromEntries("BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF".split(" ").map((c) => [c, 0])),
  ...Object.fromEntries("BHD IQD JOD KWD LYD OMR TND".split(" ").map((c) => [c, 3])),
};

/** Digits after the decimal point of the currency's minor unit per ISO 4217 (JPY 0, USD 2, BHD 3). */
export function minorUnits(code: string): number {
  return MINOR_UNITS[code] ?? 2;
}
