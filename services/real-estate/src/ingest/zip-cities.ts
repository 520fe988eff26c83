/**
 * The USPS mailing city of a US ZIP code, for King County, whose file has ZIP codes but no city names. No dataset of
 * ../shared/datasets has a ZIP-to-city table, so it comes from the `zipcodes` package (BSD licence; its US table is
 * the public "Free Zipcode Database" of federalgovernmentzipcodes.us, built from USPS data). The mailing city is the
 * one a postal address shows: ZIP 98166 (Burien) and 98155 (Shoreline) are "Seattle" there, as on the envelope.
 * Loaded on first use (about 5 MB of JavaScript), at ingestion only.
 */
import { createRequire } from "node:module";

interface ZipTable {
  lookup(zip: string): { city: string; state: string; country: string } | undefined;
}

let table: ZipTable | undefined;

export function uspsCityOfZip(zip: string): string | null {
  table ??= createRequire(import.meta.url)("zipcodes") as ZipTable;
  const found = table.lookup(zip);
  return found && found.country === "US" ? found.city : null;
}
