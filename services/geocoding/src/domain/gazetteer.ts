import { SphereKdTree, type KdTreeParts } from "./kd-tree.js";
import { ALTERNATE_FLAG, NameIndex, type NameIndexParts, type NamedPlace } from "./name-index.js";
import { normalizeName } from "./normalize.js";
import { PrefixDictionary, addPosting } from "./prefix-dictionary.js";
import type { GazetteerSource, LocalizedNameSource, LocalizedNames, RawPlace } from "./types.js";

/** A place as the API returns it. */
export interface PlaceRecord {
  id: number;
  name: string;
  latitude: number;
  longitude: number;
  country: string;
  country_code: string;
  admin1: string | null;
  timezone: string;
  population: number;
  feature_code: string;
}

interface LanguageInfo {
  code: string;
  name: string;
  localized_place_names: number;
  localized_country_names: boolean;
}

/**
 * Feature codes (https://www.geonames.org/export/codes.html) that make a place more important
 * than its population alone says: capitals and seats of administrative divisions. The bonus is
 * in decades of population: a national capital counts as a city 100 times its size; a state
 * capital 10 times, not more, or Frankfort (Kentucky, 28,000) would outrank Frankfurt am Main.
 */
const FEATURE_BONUS: Record<string, number> = {
  PPLC: 2,
  PPLG: 1.5,
  PPLA: 1,
  PPLA2: 0.5,
  PPLA3: 0.25,
  PPLA4: 0.1,
  PPLA5: 0.05,
  PPLX: -0.5,
  PPLH: -2,
  PPLQ: -2,
  PPLW: -2,
  PPLCH: -2,
};

/** Sections of a city, and places that no longer exist, are not a locality for reverse geocoding. */
const NOT_A_LOCALITY = new Set(["PPLX", "PPLH", "PPLQ", "PPLW", "PPLCH"]);

/**
 * Common names of countries that are neither their ISO code nor their CLDR name in any language.
 */
const COUNTRY_ALIASES: Record<string, string[]> = {
  US: ["usa", "united states of america", "america"],
  GB: ["uk", "great britain", "britain"],
  AE: ["uae"],
  NL: ["holland"],
  CZ: ["czech republic"],
  KR: ["south korea"],
  KP: ["north korea"],
  RU: ["russia"],
  TR: ["turkey"],
  CI: ["ivory coast"],
  CD: ["drc"],
};

export interface GazetteerParts {
  ids: Int32Array;
  names: string[];
  latitudes: Float64Array;
  longitudes: Float64Array;
  populations: Float64Array;
  importance: Float64Array;
  countryOf: Uint16Array;
  admin1Of: Int32Array;
  timezoneOf: Uint16Array;
  featureOf: Uint8Array;
  countryCodes: string[];
  admin1Keys: string[];
  admin1Names: string[];
  timezones: string[];
  featureCodes: string[];
  nameIndex: NameIndexParts;
  localityTree: KdTreeParts;
  localityPlaces: Int32Array;
}

export class Gazetteer {
  readonly count: number;
  readonly ids: Int32Array;
  readonly names: string[];
  readonly latitudes: Float64Array;
  readonly longitudes: Float64Array;
  readonly populations: Float64Array;
  readonly importance: Float64Array;
  readonly countryOf: Uint16Array;
  readonly admin1Of: Int32Array;
  private readonly timezoneOf: Uint16Array;
  private readonly featureOf: Uint8Array;

  readonly countryCodes: string[];
  private readonly admin1Names: string[];
  private readonly admin1Keys: string[];
  private readonly timezones: string[];
  private readonly featureCodes: string[];

  readonly nameIndex: NameIndex;
  readonly countryIndex: PrefixDictionary;
  readonly admin1Index: PrefixDictionary;
  private readonly localityTree: SphereKdTree;
  private readonly localityPlaces: Int32Array;
  private readonly indexById: Map<number, number>;
  private readonly localizedNames: LocalizedNameSource;
  private readonly loadedNames = new Map<string, LocalizedNames>();
  private readonly supportedLanguages: Set<string>;
  private readonly countryNameCache = new Map<string, Map<string, string>>();

  constructor(parts: GazetteerParts, localizedNames: LocalizedNameSource) {
    this.count = parts.ids.length;
    this.ids = parts.ids;
    this.names = parts.names;
    this.latitudes = parts.latitudes;
    this.longitudes = parts.longitudes;
    this.populations = parts.populations;
    this.importance = parts.importance;
    this.countryOf = parts.countryOf;
    this.admin1Of = parts.admin1Of;
    this.timezoneOf = parts.timezoneOf;
    this.featureOf = parts.featureOf;
    this.countryCodes = parts.countryCodes;
    this.admin1Keys = parts.admin1Keys;
    this.admin1Names = parts.admin1Names;
    this.timezones = parts.timezones;
    this.featureCodes = parts.featureCodes;
    this.nameIndex = new NameIndex(parts.nameIndex);
    this.localityTree = new SphereKdTree(parts.localityTree);
    this.localityPlaces = parts.localityPlaces;
    this.localizedNames = localizedNames;
    this.supportedLanguages = new Set(localizedNames.languages);
    this.indexById = new Map();
    this.ids.forEach((id, index) => this.indexById.set(id, index));
    this.countryIndex = buildCountryIndex(this.countryCodes, localizedNames.languages);
    this.admin1Index = buildAdmin1Index(this.admin1Keys, this.admin1Names);
  }

  /** Everything the constructor needs, as arrays: what a snapshot of the index stores. */
  parts(): GazetteerParts {
    return {
      ids: this.ids,
      names: this.names,
      latitudes: this.latitudes,
      longitudes: this.longitudes,
      populations: this.populations,
      importance: this.importance,
      countryOf: this.countryOf,
      admin1Of: this.admin1Of,
      timezoneOf: this.timezoneOf,
      featureOf: this.featureOf,
      countryCodes: this.countryCodes,
      admin1Keys: this.admin1Keys,
      admin1Names: this.admin1Names,
      timezones: this.timezones,
      featureCodes: this.featureCodes,
      nameIndex: this.nameIndex.parts(),
      localityTree: this.localityTree.parts(),
      localityPlaces: this.localityPlaces,
    };
  }

  static build(source: GazetteerSource): Gazetteer {
    const places = source.places;
    const count = places.length;
    const ids = new Int32Array(count);
    const names = new Array<string>(count);
    const latitudes = new Float64Array(count);
    const longitudes = new Float64Array(count);
    const populations = new Float64Array(count);
    const importance = new Float64Array(count);
    const countryOf = new Uint16Array(count);
    const admin1Of = new Int32Array(count);
    const timezoneOf = new Uint16Array(count);
    const featureOf = new Uint8Array(count);
    const countryCodes = new Interner();
    const admin1Keys = new Interner();
    const timezones = new Interner();
    const featureCodes = new Interner();

    places.forEach((place, index) => {
      ids[index] = place.id;
      names[index] = place.name;
      latitudes[index] = place.latitude;
      longitudes[index] = place.longitude;
      populations[index] = place.population;
      importance[index] = importanceOf(place);
      countryOf[index] = countryCodes.id(place.countryCode);
      const admin1Key = `${place.countryCode}.${place.admin1Code}`;
      admin1Of[index] = source.admin1Names.has(admin1Key) ? admin1Keys.id(admin1Key) : -1;
      timezoneOf[index] = timezones.id(place.timezone);
      featureOf[index] = featureCodes.id(place.featureCode);
    });

    const localities = places.flatMap((place, index) => (NOT_A_LOCALITY.has(place.featureCode) ? [] : [index]));
    const localityTree = new SphereKdTree(
      localities.map((index) => latitudes[index]),
      localities.map((index) => longitudes[index]),
    );
    const nameIndex = NameIndex.build(namedPlaces(places), importanceRanks(importance, populations, ids));
    return new Gazetteer(
      {
        ids,
        names,
        latitudes,
        longitudes,
        populations,
        importance,
        countryOf,
        admin1Of,
        timezoneOf,
        featureOf,
        countryCodes: countryCodes.values,
        admin1Keys: admin1Keys.values,
        admin1Names: admin1Keys.values.map((key) => source.admin1Names.get(key)!),
        timezones: timezones.values,
        featureCodes: featureCodes.values,
        nameIndex: nameIndex.parts(),
        localityTree: localityTree.parts(),
        localityPlaces: Int32Array.from(localities),
      },
      source.localizedNames,
    );
  }

  get admin1Count(): number {
    return this.admin1Names.length;
  }

  static isAlternatePosting(posting: number): boolean {
    return (posting & ALTERNATE_FLAG) === ALTERNATE_FLAG;
  }

  static placeOfPosting(posting: number): number {
    return posting >> 1;
  }

  indexOfId(id: number): number | undefined {
    return this.indexById.get(id);
  }

  countryIndexOf(code: string): number {
    return this.countryCodes.indexOf(code);
  }

  supportsLanguage(language: string): boolean {
    return this.supportedLanguages.has(language);
  }

  /** Reads every catalogue to count the places it names: meant to be called once and cached. */
  languages(): LanguageInfo[] {
    const englishNames = new Intl.DisplayNames(["en"], { type: "language", fallback: "code" });
    return this.localizedNames.languages.map((code) => {
      const names = this.loadedNames.get(code) ?? this.localizedNames.load(code);
      let localized = 0;
      for (const id of names.places.keys()) if (this.indexById.has(id)) localized++;
      return {
        code,
        name: englishNames.of(code) ?? code,
        localized_place_names: localized,
        localized_country_names: Intl.DisplayNames.supportedLocalesOf([code]).length > 0 || names.countries.size > 0,
      };
    });
  }

  /** The nearest place that is a locality (not a city section or a vanished place). */
  nearestLocality(latitude: number, longitude: number): { index: number; distanceKm: number } | undefined {
    const hit = this.localityTree.nearest(latitude, longitude);
    if (hit === undefined) return undefined;
    return { index: this.localityPlaces[hit.index], distanceKm: hit.distanceKm };
  }

  placeName(index: number, language: string | undefined): string {
    if (language === undefined) return this.names[index];
    return this.namesIn(language).places.get(this.ids[index]) ?? this.names[index];
  }

  private regionName(admin1: number, language: string | undefined): string | null {
    if (admin1 === -1) return null;
    if (language === undefined) return this.admin1Names[admin1];
    return this.namesIn(language).regions.get(this.admin1Keys[admin1]) ?? this.admin1Names[admin1];
  }

  private namesIn(language: string): LocalizedNames {
    let names = this.loadedNames.get(language);
    if (names === undefined) {
      names = this.supportedLanguages.has(language) ? this.localizedNames.load(language) : { places: new Map(), regions: new Map(), countries: new Map() };
      this.loadedNames.set(language, names);
    }
    return names;
  }

  /** CLDR's name through Intl.DisplayNames; GeoNames' own when ICU does not know the language. */
  countryName(code: string, language: string | undefined): string {
    const locale = language ?? "en";
    let names = this.countryNameCache.get(locale);
    if (names === undefined) {
      names = new Map();
      this.countryNameCache.set(locale, names);
    }
    let name = names.get(code);
    if (name === undefined) {
      const fromIcu = Intl.DisplayNames.supportedLocalesOf([locale]).length > 0 ? displayRegionName(locale, code) : undefined;
      name = fromIcu ?? (language ? this.namesIn(language).countries.get(code) : undefined) ?? displayRegionName("en", code) ?? code;
      names.set(code, name);
    }
    return name;
  }

  describe(index: number, language: string | undefined): PlaceRecord {
    const countryCode = this.countryCodes[this.countryOf[index]];
    const admin1 = this.admin1Of[index];
    return {
      id: this.ids[index],
      name: this.placeName(index, language),
      latitude: this.latitudes[index],
      longitude: this.longitudes[index],
      country: this.countryName(countryCode, language),
      country_code: countryCode,
      admin1: this.regionName(admin1, language),
      timezone: this.timezones[this.timezoneOf[index]],
      population: this.populations[index],
      feature_code: this.featureCodes[this.featureOf[index]],
    };
  }
}

function importanceOf(place: RawPlace): number {
  return Math.log10(Math.max(place.population, 1)) + (FEATURE_BONUS[place.featureCode] ?? 0);
}

function* namedPlaces(places: RawPlace[]): Iterable<NamedPlace> {
  for (let index = 0; index < places.length; index++) {
    const place = places[index];
    yield {
      index,
      primaryNames: [place.name, place.asciiName],
      alternateNames: place.alternateNames ? place.alternateNames.split(",") : [],
    };
  }
}

/** rank[place]: 0 for the most important place; ties by population, then by GeoNames id. */
function importanceRanks(importance: Float64Array, populations: Float64Array, ids: Int32Array): Int32Array {
  const order = Array.from({ length: importance.length }, (_, index) => index);
  order.sort((a, b) => importance[b] - importance[a] || populations[b] - populations[a] || ids[a] - ids[b]);
  const ranks = new Int32Array(importance.length);
  order.forEach((place, rank) => {
    ranks[place] = rank;
  });
  return ranks;
}

function buildCountryIndex(countryCodes: string[], languages: string[]): PrefixDictionary {
  const entries = new Map<string, number[]>();
  const locales = Intl.DisplayNames.supportedLocalesOf(["en", ...languages]);
  const displays = locales.map((locale) => new Intl.DisplayNames([locale], { type: "region", fallback: "none" }));
  countryCodes.forEach((code, countryIndex) => {
    addPosting(entries, code.toLowerCase(), countryIndex);
    for (const display of displays) {
      const name = safeDisplay(display, code);
      if (name) addPosting(entries, normalizeName(name), countryIndex);
    }
    for (const alias of COUNTRY_ALIASES[code] ?? []) addPosting(entries, alias, countryIndex);
  });
  for (const list of entries.values()) list.sort((a, b) => a - b);
  return PrefixDictionary.build(dedupeLists(entries));
}

/** Region names, and US-style letter codes of regions ("TX", "ENG"); numeric GeoNames codes mean nothing to users. */
function buildAdmin1Index(keys: string[], names: string[]): PrefixDictionary {
  const entries = new Map<string, number[]>();
  keys.forEach((key, admin1Index) => {
    addPosting(entries, normalizeName(names[admin1Index]), admin1Index);
    const code = key.slice(key.indexOf(".") + 1);
    if (/^[A-Za-z]{2,3}$/.test(code)) addPosting(entries, code.toLowerCase(), admin1Index);
  });
  return PrefixDictionary.build(entries);
}

function dedupeLists(entries: Map<string, number[]>): Map<string, number[]> {
  for (const [key, list] of entries) entries.set(key, [...new Set(list)]);
  return entries;
}

function displayRegionName(locale: string, code: string): string | undefined {
  try {
    return new Intl.DisplayNames([locale], { type: "region", fallback: "none" }).of(code);
  } catch {
    return undefined;
  }
}

function safeDisplay(display: Intl.DisplayNames, code: string): string | undefined {
  try {
    return display.of(code);
  } catch {
    return undefined;
  }
}

class Interner {
  readonly values: string[] = [];
  private readonly ids = new Map<string, number>();

  id(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      this.ids.set(value, id);
    }
    return id;
  }
}
