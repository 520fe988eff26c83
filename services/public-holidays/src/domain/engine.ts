import Holidays, { type HolidaysTypes } from "date-holidays";
import { localDate, localDateTime } from "./calendar.js";
import type { Country, Holiday, HolidayType, Subdivision } from "./types.js";

/** One holiday as date-holidays evaluates it in English, and the instance (area) that produced it. */
interface Evaluated {
  raw: HolidaysTypes.Holiday;
  area: Area;
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
  private readonly instances = new Map<string, Holidays>();

  constructor() {
    this.countries = loadCountries();
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
        const without = nationwideByLaw(country.code, year, evaluated)
          ? []
          : country.subdivisions.map((subdivision) => subdivision.code).filter((code) => !keptIn.has(code));
        return toHoliday(country, evaluated, localNames(evaluated), { exceptCounties: sortedOrNull(new Set(without)) });
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
    return this.instance(country, area)
      .getHolidays(year, englishLanguageOf(country))
      .map((raw) => ({ raw, area }));
  }

  /**
   * Names in the country's main language: each area that produced a kept holiday is evaluated once more
   * in that language (and only those, as evaluating is the expensive part).
   */
  private async localNames(country: Country, year: number, kept: Evaluated[]): Promise<(evaluated: Evaluated) => string> {
    const localLanguage = country.engineLanguages[0] ?? "en";
    if (localLanguage === englishLanguageOf(country)) return ({ raw }) => raw.name;
    const lists = new Map<string, HolidaysTypes.Holiday[]>();
    for (const { area } of kept) {
      if (lists.has(area.key)) continue;
      await yieldToEventLoop();
      lists.set(area.key, this.instance(country, area).getHolidays(year, localLanguage));
    }
    return ({ raw, area }) => localNameOf(raw, lists.get(area.key) ?? []);
  }

  private instance(country: Country, { key, subdivision, regionCode }: Area): Holidays {
    let instance = this.instances.get(key);
    if (!instance) {
      const state = subdivision ? libraryCode(subdivision.code) : undefined;
      const region = regionCode ? libraryCode(regionCode) : undefined;
      instance = new Holidays({ country: country.code, state, region });
      // One clock for the whole country: regional dates are given in the country's main time zone.
      instance.setTimezone(country.timezone);
      applyCorrections(instance, country.code);
      this.instances.set(key, instance);
    }
    return instance;
  }
}

interface RuleCorrection {
  country: string;
  rule: string;
  replacement: string;
}

/**
 * Where the engine's data is known to disagree with the law. Veterans Day: a federal holiday on a
 * Saturday is observed the Friday before, on a Sunday the Monday after (5 U.S.C. 6103(b), Executive
 * Order 11582); the engine has no observed day for it (OPM's 2023 calendar: Friday, November 10).
 */
const RULE_CORRECTIONS: RuleCorrection[] = [
  { country: "US", rule: "11-11", replacement: "11-11 and if sunday then next monday if saturday then previous friday" },
];

function applyCorrections(instance: Holidays, countryCode: string): void {
  for (const correction of RULE_CORRECTIONS) {
    if (correction.country !== countryCode) continue;
    // The class declared for rules in the typings hides their fields; they are plain rule objects.
    const rules = instance.getRules() as unknown as HolidaysTypes.HolidayRule[];
    const original = rules.find((rule) => rule.rule === correction.rule);
    if (!original) continue;
    instance.unsetRule(correction.rule);
    instance.setHoliday(correction.replacement, { name: original.name, type: original.type, substitute: true });
  }
}

/**
 * National holidays that hold in every subdivision by law although some subdivisions' data in the engine
 * still switch them off: Black Awareness Day in Brazil, national since 2024 (Lei nº 14.759/2023).
 */
const NATIONWIDE_BY_LAW: { country: string; name: string; fromYear: number }[] = [
  { country: "BR", name: "Black Awareness Day", fromYear: 2024 },
];

function nationwideByLaw(countryCode: string, year: number, { raw }: Evaluated): boolean {
  return NATIONWIDE_BY_LAW.some((law) => law.country === countryCode && law.name === raw.name && year >= law.fromYear);
}

function loadCountries(): Map<string, Country> {
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
  return new Map([...countries.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

function subdivisionsOf(library: Holidays, countryCode: string): Subdivision[] {
  const states = library.getStates(countryCode, "en") ?? {};
  return Object.entries(states)
    .map(([stateCode, name]) => {
      const code = `${countryCode}-${stateCode}`;
      const regions = Object.entries(library.getRegions(countryCode, stateCode, "en") ?? {}).map(
        ([regionCode, regionName]) => ({ code: `${code}-${regionCode}`, name: regionName }),
      );
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
  const same = local.find(
    (candidate) => candidate.date === raw.date && candidate.rule === raw.rule && candidate.type === raw.type,
  );
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

function toHoliday(country: Country, { raw }: Evaluated, localName: string, scope: Scope): Holiday {
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
  };
}

function compareHolidays(a: Holiday, b: Holiday): number {
  return (
    a.date.localeCompare(b.date) ||
    a.start.localeCompare(b.start) ||
    Number(b.global) - Number(a.global) ||
    a.name.localeCompare(b.name)
  );
}
