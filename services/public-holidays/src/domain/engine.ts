import Holidays, { type HolidaysTypes } from "date-holidays";
import { localDate, localDateTime } from "./calendar.js";
import { ADDED_COUNTRIES, CORRECTIONS } from "./corrections/index.js";
import { appliesIn, type AddedCountry, type Correction } from "./corrections/types.js";
import type { Country, Holiday, HolidayType, Subdivision } from "./types.js";

/**
 * One holiday as date-holidays evaluates it in English, the instance (area) that produced it, and the
 * correction it comes from when it is not the engine's own.
 */
interface Evaluated {
  raw: HolidaysTypes.Holiday;
  area: Area;
  correction?: Correction;
}

/** The engine's calendar of one area, and the holidays the corrections add to it (their own instance). */
interface AreaCalendar {
  engine: Holidays;
  additions: Holidays;
  /**
   * Additions by rule: what an added holiday's `rule` points back to. One rule can serve several entries
   * (Easter Sunday in each Australian state from its own year), told apart by their years and subdivisions.
   */
  added: Map<string, Correction[]>;
  /** The engine's rules that corrections remove, some years or always. */
  removed: Map<string, Correction[]>;
}

/** The country, one of its subdivisions, or a local area within a subdivision. */
interface Area {
  key: string;
  subdivision?: Subdivision;
  regionCode?: string;
}

interface RegionalGroup {
  evaluated: Evaluated;
  counties: Set<string>;
  regions: Set<string>;
}

const englishNames = new Intl.DisplayNames(["en"], { type: "region" });

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Wraps date-holidays: the list of countries and, per country and year, the national holidays plus
 * the regional ones found by evaluating every state and every local area of the country.
 */
export class HolidayEngine {
  private readonly countries: Map<string, Country>;
  private readonly calendars = new Map<string, AreaCalendar>();

  /**
   * `corrections` default to the cited table in ./corrections; the comparison with other records passes
   * none to measure the engine alone.
   */
  constructor(
    private readonly corrections: readonly Correction[] = CORRECTIONS,
    addedCountries: readonly AddedCountry[] = ADDED_COUNTRIES,
  ) {
    this.countries = loadCountries(corrections.length > 0 ? addedCountries : []);
  }

  listCountries(): Country[] {
    return [...this.countries.values()];
  }

  getCountry(code: string): Country | undefined {
    return this.countries.get(code.toUpperCase());
  }

  /**
   * Every holiday of every type of the country in the year, national and regional, sorted by date.
   * Evaluating one area takes milliseconds, a country with many subdivisions hundreds of them: the
   * work yields to the event loop between areas so that other requests are served meanwhile.
   */
  async holidaysOfYear(countryCode: string, year: number): Promise<Holiday[]> {
    const country = this.countries.get(countryCode);
    if (!country) throw new Error(`unsupported country ${countryCode}`);
    const national = this.evaluate(country, year, { key: country.code });
    const nationalKeys = new Set(national.flatMap(identityKeys));
    const groups = new Map<string, RegionalGroup>();
    /** Subdivisions that keep each national holiday (by its first identity key): the others do without it. */
    const keptBy = new Map<string, string[]>(national.map((evaluated) => [identityKeys(evaluated)[0], []]));

    for (const subdivision of country.subdivisions) {
      await yieldToEventLoop();
      const stateHolidays = this.evaluate(country, year, { key: subdivision.code, subdivision });
      const stateKeys = new Set(stateHolidays.flatMap(identityKeys));
      const stateDays = new Set(stateHolidays.map(dayKey));
      for (const evaluated of national) {
        if (isKnown(evaluated, stateKeys) || stateDays.has(dayKey(evaluated))) keptBy.get(identityKeys(evaluated)[0])!.push(subdivision.code);
      }
      for (const evaluated of stateHolidays) {
        if (isKnown(evaluated, nationalKeys)) continue;
        groupOf(groups, evaluated).counties.add(subdivision.code);
      }
      for (const region of subdivision.regions) {
        await yieldToEventLoop();
        const area = { key: region.code, subdivision, regionCode: region.code };
        for (const evaluated of this.evaluate(country, year, area)) {
          if (isKnown(evaluated, nationalKeys) || isKnown(evaluated, stateKeys)) continue;
          groupOf(groups, evaluated).regions.add(region.code);
        }
      }
    }

    const regional = [...groups.values()];
    const localNames = await this.localNames(country, year, [...national, ...regional.map((group) => group.evaluated)]);
    const holidays = [
      ...national.map((evaluated) => {
        const keptIn = new Set(keptBy.get(identityKeys(evaluated)[0]));
        const byLaw = this.corrections.find(
          (correction) =>
            correction.action === "nationwide" &&
            correction.country === country.code &&
            correction.rule === evaluated.raw.rule &&
            appliesIn(correction, year, undefined),
        );
        const without = byLaw ? [] : country.subdivisions.map((subdivision) => subdivision.code).filter((code) => !keptIn.has(code));
        return toHoliday(country, byLaw ? { ...evaluated, correction: byLaw } : evaluated, localNames(evaluated), {
          exceptCounties: sortedOrNull(new Set(without)),
        });
      }),
      ...regional.map(({ evaluated, counties, regions }) =>
        toHoliday(country, evaluated, localNames(evaluated), {
          counties: sortedOrNull(counties),
          regions: sortedOrNull(regions),
        }),
      ),
    ];
    return holidays.sort(compareHolidays);
  }

  private evaluate(country: Country, year: number, area: Area): Evaluated[] {
    const calendar = this.calendar(country, area);
    const subdivision = area.subdivision?.code;
    const kept = calendar.engine
      .getHolidays(year, englishLanguageOf(country))
      .filter((raw) => !calendar.removed.get(raw.rule)?.some((correction) => appliesIn(correction, year, subdivision)))
      .map((raw): Evaluated => ({ raw, area }));
    const added = calendar.additions
      .getHolidays(year, "en")
      .map(
        (raw): Evaluated => ({
          raw,
          area,
          correction: calendar.added.get(raw.rule)?.find((correction) => appliesIn(correction, year, subdivision)),
        }),
      )
      .filter(({ correction }) => correction !== undefined);
    return [...kept, ...added];
  }

  /**
   * Names in the country's main language: each area that produced a kept holiday is evaluated once more
   * in that language (and only those, as evaluating is the expensive part).
   */
  private async localNames(country: Country, year: number, kept: Evaluated[]): Promise<(evaluated: Evaluated) => string> {
    const localLanguage = country.engineLanguages[0] ?? "en";
    if (localLanguage === englishLanguageOf(country)) return ({ raw }) => raw.name;
    const lists = new Map<string, HolidaysTypes.Holiday[]>();
    for (const { area, correction } of kept) {
      if (correction || lists.has(area.key)) continue;
      await yieldToEventLoop();
      lists.set(area.key, this.calendar(country, area).engine.getHolidays(year, localLanguage));
    }
    return ({ raw, area, correction }) => (correction ? (correction.name?.[localLanguage] ?? raw.name) : localNameOf(raw, lists.get(area.key) ?? []));
  }

  private calendar(country: Country, { key, subdivision, regionCode }: Area): AreaCalendar {
    let calendar = this.calendars.get(key);
    if (!calendar) {
      const state = subdivision ? libraryCode(subdivision.code) : undefined;
      const region = regionCode ? libraryCode(regionCode) : undefined;
      const engine = country.addedByCorrections ? new Holidays() : new Holidays({ country: country.code, state, region });
      // One clock for the whole country: regional dates are given in the country's main time zone.
      engine.setTimezone(country.timezone);
      calendar = { engine, ...correctionsOf(this.corrections, country) };
      this.calendars.set(key, calendar);
    }
    return calendar;
  }
}

/** The additions of a country as a date-holidays instance of their own, and its removals by rule. */
function correctionsOf(corrections: readonly Correction[], country: Country): Omit<AreaCalendar, "engine"> {
  const additions = new Holidays();
  additions.setTimezone(country.timezone);
  const added = new Map<string, Correction[]>();
  const removed = new Map<string, Correction[]>();
  for (const correction of corrections) {
    if (correction.country !== country.code) continue;
    if (correction.action === "nationwide") continue; // a scope, applied where national holidays are listed
    if (correction.action === "remove") {
      removed.set(correction.rule, [...(removed.get(correction.rule) ?? []), correction]);
      continue;
    }
    const same = added.get(correction.rule);
    if (same) {
      if (!sameHoliday(same[0], correction)) throw new Error(`correction ${correction.id}: rule "${correction.rule}" already names another holiday`);
      same.push(correction);
      continue;
    }
    const options = { name: correction.name ?? {}, type: correction.type ?? "public", substitute: correction.substitute };
    if (!additions.setHoliday(correction.rule, options as HolidaysTypes.HolidayOptions)) {
      throw new Error(`correction ${correction.id}: rule "${correction.rule}" is not understood`);
    }
    added.set(correction.rule, [correction]);
  }
  return { additions, added, removed };
}

function sameHoliday(a: Correction, b: Correction): boolean {
  return JSON.stringify([a.name, a.type, a.substitute]) === JSON.stringify([b.name, b.type, b.substitute]);
}

function loadCountries(addedCountries: readonly AddedCountry[]): Map<string, Country> {
  const library = new Holidays();
  const countries = new Map<string, Country>();
  for (const [code, libraryName] of Object.entries(library.getCountries("en"))) {
    const instance = new Holidays(code);
    countries.set(code, {
      code,
      name: englishNameOf(code, libraryName),
      timezone: instance.getTimezones()[0] ?? "UTC",
      languages: instance.getLanguages().map(toLanguageTag),
      engineLanguages: instance.getLanguages(),
      subdivisions: subdivisionsOf(library, code),
    });
  }
  for (const added of addedCountries) {
    countries.set(added.code, {
      code: added.code,
      name: englishNameOf(added.code, added.code),
      timezone: added.timezone,
      languages: added.languages.map(toLanguageTag),
      engineLanguages: added.languages,
      subdivisions: [],
      addedByCorrections: true,
    });
  }
  return new Map([...countries.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

function subdivisionsOf(library: Holidays, countryCode: string): Subdivision[] {
  const states = library.getStates(countryCode, "en") ?? {};
  return Object.entries(states)
    .map(([stateCode, name]) => {
      const code = `${countryCode}-${stateCode}`;
      const regions = Object.entries(library.getRegions(countryCode, stateCode, "en") ?? {}).map(([regionCode, regionName]) => ({
        code: `${code}-${regionCode}`,
        name: regionName,
      }));
      return { code, name, regions: regions.sort((a, b) => a.code.localeCompare(b.code)) };
    })
    .sort((a, b) => a.code.localeCompare(b.code));
}

/** date-holidays spells a few languages by country code (Japanese "jp", Czech "cz", Georgian "ge"). */
const ENGINE_LANGUAGE_FIXES: Record<string, string> = { jp: "ja", cz: "cs", ge: "ka" };

function toLanguageTag(engineLanguage: string): string {
  const [language, region] = engineLanguage.split("-");
  const fixed = ENGINE_LANGUAGE_FIXES[language] ?? language;
  return region ? `${fixed}-${region.toUpperCase()}` : fixed;
}

function englishNameOf(code: string, fallback: string): string {
  const name = englishNames.of(code);
  return name && name !== code && name !== "Unknown Region" ? name : fallback;
}

/** "DE-BY-A" -> "A": the last segment is the code date-holidays knows the subdivision by. */
function libraryCode(code: string): string {
  return code.split("-").slice(-1)[0];
}

/**
 * A state or local area may restate a national rule under another name (California's "Presidents' Day"
 * is the federal "Washington's Birthday"), or another rule for the same named day: both mean the same
 * holiday, so it is known when either its rule or its name matches on the same day and type.
 */
function identityKeys({ raw }: Evaluated): string[] {
  const day = `${raw.date}|${raw.type}|${raw.substitute ? 1 : 0}`;
  return [`rule|${day}|${raw.rule}`, `name|${day}|${raw.name.toLowerCase()}`];
}

/**
 * The day off itself: a subdivision that has a holiday of the same type on the same day keeps the national
 * one, whatever it calls it.
 */
function dayKey({ raw }: Evaluated): string {
  return `${raw.date}|${raw.type}`;
}

function isKnown(evaluated: Evaluated, keys: Set<string>): boolean {
  return identityKeys(evaluated).some((key) => keys.has(key));
}

/** Regional holidays merge by name: states often enact the same day by rules of their own. */
function groupOf(groups: Map<string, RegionalGroup>, evaluated: Evaluated): RegionalGroup {
  const key = identityKeys(evaluated)[1];
  let group = groups.get(key);
  if (!group) {
    group = { evaluated, counties: new Set(), regions: new Set() };
    groups.set(key, group);
  }
  return group;
}

function englishLanguageOf(country: Country): string {
  return country.engineLanguages.find((language) => language.startsWith("en")) ?? "en";
}

function localNameOf(raw: HolidaysTypes.Holiday, local: HolidaysTypes.Holiday[]): string {
  const same = local.find((candidate) => candidate.date === raw.date && candidate.rule === raw.rule && candidate.type === raw.type);
  return same?.name ?? raw.name;
}

function sortedOrNull(codes: Set<string>): string[] | null {
  return codes.size === 0 ? null : [...codes].sort();
}

interface Scope {
  counties?: string[] | null;
  regions?: string[] | null;
  exceptCounties?: string[] | null;
}

/** Rules in a lunar or lunisolar calendar (Islamic, Hebrew, Chinese, Korean, Vietnamese months). */
const LUNAR_RULE =
  /Muharram|Safar|Rabi al-|Jumada al-|Rajab|Shaban|Ramadan|Shawwal|Dhu al-|Nisan|Iyyar|Sivan|Tamuz|\bAv\b|Elul|Tishrei|Cheshvan|Kislev|Tevet|Shvat|Adar|^(chinese|korean|vietnamese) /;

function lunarDateOf({ raw, correction }: Evaluated): Holiday["lunar_date"] {
  if (correction?.lunarDate) return correction.lunarDate;
  // Chinese solar terms (Qingming) follow the sun: computed, but no lunar date.
  return LUNAR_RULE.test(raw.rule) && !raw.rule.includes("solarterm") ? "calculated" : null;
}

function toHoliday(country: Country, evaluated: Evaluated, localName: string, scope: Scope): Holiday {
  const { raw } = evaluated;
  const counties = scope.counties ?? null;
  const regions = scope.regions ?? null;
  return {
    date: raw.date.slice(0, 10),
    end_date: localDate(new Date(raw.end.getTime() - 1), country.timezone),
    start: localDateTime(raw.start, country.timezone),
    end: localDateTime(raw.end, country.timezone),
    name: raw.name,
    local_name: localName,
    country_code: country.code,
    global: counties === null && regions === null,
    counties,
    regions,
    except_counties: scope.exceptCounties ?? null,
    types: [raw.type as HolidayType],
    substitute: raw.substitute === true,
    lunar_date: lunarDateOf(evaluated),
    source: evaluated.correction?.source ?? null,
  };
}

function compareHolidays(a: Holiday, b: Holiday): number {
  return a.date.localeCompare(b.date) || a.start.localeCompare(b.start) || Number(b.global) - Number(a.global) || a.name.localeCompare(b.name);
}
