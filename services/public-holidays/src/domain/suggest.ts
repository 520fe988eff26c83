import isoCountries from "i18n-iso-countries";
import type { Country } from "./types.js";

const MAX_SUGGESTIONS = 5;

/** Codes people use that are not ISO 3166-1 alpha-2 (United Kingdom, Greece in EU usage). */
const COMMON_ALIASES: Record<string, string> = { UK: "GB", EL: "GR" };

interface CountryHint {
  /** Supported countries the input most likely meant, best first. */
  suggestions: Country[];
  /** The ISO name when the input is a valid code of a country the library has no calendar for. */
  unsupportedName: string | null;
}

/** Why a country input is unknown, and which supported countries it probably meant. */
export function hintFor(input: string, countries: Country[]): CountryHint {
  const byCode = new Map(countries.map((country) => [country.code, country]));
  const trimmed = input.trim();
  const upper = trimmed.toUpperCase();
  const codes: string[] = [];
  const add = (code: string | undefined) => {
    if (code && byCode.has(code) && !codes.includes(code)) codes.push(code);
  };

  add(COMMON_ALIASES[upper]);
  if (/^[A-Z]{3}$/.test(upper)) add(isoCountries.alpha3ToAlpha2(upper));
  if (/^\d{1,3}$/.test(upper)) add(isoCountries.numericToAlpha2(upper.padStart(3, "0")));
  if (trimmed.length >= 3) {
    for (const code of codesNamed(trimmed)) add(code);
    for (const code of closeNames(trimmed, countries)) add(code);
  }

  const unsupportedName = /^[A-Z]{2}$/.test(upper) && !byCode.has(upper) ? (isoCountries.getName(upper, "en") ?? null) : null;
  return { suggestions: codes.slice(0, MAX_SUGGESTIONS).map((code) => byCode.get(code)!), unsupportedName };
}

let namesIndex: Map<string, Set<string>> | undefined;

/** Every country name in every language ISO names are published in, normalized, to the codes it names. */
export function countryNamesIndex(): Map<string, Set<string>> {
  if (namesIndex) return namesIndex;
  namesIndex = new Map();
  for (const language of isoCountries.langs()) {
    for (const [code, names] of Object.entries(isoCountries.getNames(language, { select: "all" }))) {
      for (const name of Array.isArray(names) ? names : [names]) {
        const key = normalize(name);
        if (!namesIndex.has(key)) namesIndex.set(key, new Set());
        namesIndex.get(key)!.add(code);
      }
    }
  }
  return namesIndex;
}

/** Exact country names in any language ("Deutschland", "Allemagne", "Great Britain"). */
function codesNamed(name: string): string[] {
  return [...(countryNamesIndex().get(normalize(name)) ?? [])];
}

/** English names that start with the input, contain it as a word, or are one or two typos away. */
function closeNames(input: string, countries: Country[]): string[] {
  const wanted = normalize(input);
  const scored: { code: string; score: number }[] = [];
  for (const country of countries) {
    const name = normalize(country.name);
    const score = nameDistance(wanted, name);
    if (score !== null) scored.push({ code: country.code, score });
  }
  return scored.sort((a, b) => a.score - b.score || a.code.localeCompare(b.code)).map(({ code }) => code);
}

function nameDistance(wanted: string, name: string): number | null {
  if (name === wanted) return 0;
  if (name.startsWith(wanted)) return 1;
  if (name.split(" ").some((word) => word.startsWith(wanted))) return 2;
  if (wanted.length < 4) return null;
  const typos = levenshtein(wanted, name.slice(0, wanted.length + 1));
  const limit = wanted.length >= 7 ? 2 : 1;
  return Math.min(typos, levenshtein(wanted, name)) <= limit ? 3 + typos : null;
}

function normalize(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j] + 1, current[j - 1] + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length];
}

export function describeHint(input: string, hint: CountryHint): string {
  const shown = input.length > 40 ? `${input.slice(0, 40)}…` : input;
  const lead = hint.unsupportedName
    ? `country ${input.toUpperCase()} (${hint.unsupportedName}) has no holiday calendar here`
    : `country "${shown}" is not an ISO 3166-1 alpha-2 code we know`;
  if (hint.suggestions.length === 0) return `${lead}; GET /countries lists the supported codes.`;
  const names = hint.suggestions.map((country) => `${country.code} (${country.name})`).join(", ");
  return `${lead}; did you mean ${names}?`;
}
