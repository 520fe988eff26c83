/** The IANA tz database as compiled on this machine: zone names, links, version and each zone's rules. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseTzif } from "../domain/tzif.js";
import { ZoneRules } from "../domain/zone-rules.js";

export interface ZoneEntry {
  name: string;
  kind: "canonical" | "alias";
  /** The canonical zone an alias links to; null for a canonical zone. */
  target: string | null;
  rules: ZoneRules;
  /**
   * ISO 3166 codes of the countries zone.tab places in this very name. Aliases rarely appear there and do not
   * inherit their target's: Atlantic/Jan_Mayen (Norway) links to Europe/Berlin.
   */
  countryCodes: string[];
  /** zone.tab's description of the region, e.g. "most of Germany"; null when it has none. */
  comment: string | null;
}

interface ZoneTabRow {
  countryCode: string;
  comment: string | null;
}

/** "Factory" is the tz database's placeholder for "zone not configured yet", not a place. */
const EXCLUDED_ZONES = new Set(["Factory"]);

export const DEFAULT_ZONEINFO_DIR = "/usr/share/zoneinfo";

export class ZoneDatabaseError extends Error {}

interface ZiIndex {
  version: string;
  zones: string[];
  links: { name: string; target: string }[];
}

/** Reads the version and the Zone (Z) and Link (L) lines of tzdata.zi, the compact source zic compiled. */
export function readZiIndex(text: string): ZiIndex {
  const version = /^# version (\S+)/m.exec(text)?.[1];
  if (!version) throw new ZoneDatabaseError("tzdata.zi has no '# version' line");
  const zones: string[] = [];
  const links: { name: string; target: string }[] = [];
  for (const line of text.split("\n")) {
    const fields = line.split(/\s+/);
    if (fields[0] === "Z" && fields[1]) zones.push(fields[1]);
    else if (fields[0] === "L" && fields[1] && fields[2]) links.push({ target: fields[1], name: fields[2] });
  }
  return { version, zones, links };
}

/** zone.tab: one row per country and zone, "CC<TAB>coordinates<TAB>Zone[<TAB>comment]". */
export function readZoneTab(text: string): Map<string, ZoneTabRow[]> {
  const rows = new Map<string, ZoneTabRow[]>();
  for (const line of text.split("\n")) {
    if (line.startsWith("#") || line.trim() === "") continue;
    const [countryCode, , zone, comment] = line.split("\t");
    if (!countryCode || !zone) continue;
    rows.set(zone, [...(rows.get(zone) ?? []), { countryCode, comment: comment?.trim() || null }]);
  }
  return rows;
}

/** iso3166.tab: "CC<TAB>Country name". */
export function readCountryNames(text: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (line.startsWith("#") || line.trim() === "") continue;
    const [code, name] = line.split("\t");
    if (code && name) names.set(code, name.trim());
  }
  return names;
}

function readOptional(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

export class ZoneDatabase {
  readonly version: string;
  /** ISO 3166 alpha-2 code -> country name, from iso3166.tab. */
  readonly countryNames: ReadonlyMap<string, string>;
  /** Every name, canonical and alias, sorted by name. */
  readonly entries: readonly ZoneEntry[];
  private readonly byLowerName: Map<string, ZoneEntry>;

  private constructor(version: string, entries: ZoneEntry[], countryNames: Map<string, string>) {
    this.version = version;
    this.countryNames = countryNames;
    this.entries = entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    this.byLowerName = new Map(entries.map((e) => [e.name.toLowerCase(), e]));
  }

  static load(zoneinfoDir: string = DEFAULT_ZONEINFO_DIR): ZoneDatabase {
    let index: ZiIndex;
    try {
      index = readZiIndex(readFileSync(path.join(zoneinfoDir, "tzdata.zi"), "utf8"));
    } catch (error) {
      throw new ZoneDatabaseError(`cannot read ${zoneinfoDir}/tzdata.zi: ${(error as Error).message}`);
    }
    // zone.tab and iso3166.tab only add country information: a database without them still works.
    const zoneTab = readZoneTab(readOptional(path.join(zoneinfoDir, "zone.tab")));
    const countryNames = readCountryNames(readOptional(path.join(zoneinfoDir, "iso3166.tab")));
    const places = (name: string) => {
      const rows = zoneTab.get(name);
      if (!rows) return { countryCodes: [], comment: null };
      return { countryCodes: [...new Set(rows.map((r) => r.countryCode))], comment: rows.find((r) => r.comment)?.comment ?? null };
    };
    const canonical = new Map<string, ZoneEntry>();
    for (const name of index.zones) {
      if (EXCLUDED_ZONES.has(name)) continue;
      const rules = loadRules(zoneinfoDir, name);
      canonical.set(name, { name, kind: "canonical", target: null, rules, ...places(name) });
    }
    const aliases: ZoneEntry[] = [];
    for (const link of index.links) {
      const target = resolveLinkTarget(link.target, index.links, canonical);
      if (!target || EXCLUDED_ZONES.has(link.name)) continue;
      aliases.push({ name: link.name, kind: "alias", target: target.name, rules: target.rules, ...places(link.name) });
    }
    return new ZoneDatabase(index.version, [...canonical.values(), ...aliases], countryNames);
  }

  /** Exact name, or the same name in another letter case ("europe/paris"). */
  find(name: string): ZoneEntry | undefined {
    return this.byLowerName.get(name.toLowerCase());
  }
}

function loadRules(zoneinfoDir: string, name: string): ZoneRules {
  const file = path.join(zoneinfoDir, name);
  try {
    return new ZoneRules(parseTzif(readFileSync(file)));
  } catch (error) {
    throw new ZoneDatabaseError(`cannot load zone ${name} from ${file}: ${(error as Error).message}`);
  }
}

/** Links normally name a Zone; follow link chains too, in case a data release introduces one. */
function resolveLinkTarget(target: string, links: { name: string; target: string }[], canonical: Map<string, ZoneEntry>): ZoneEntry | undefined {
  let current = target;
  for (let hops = 0; hops < 8; hops++) {
    const zone = canonical.get(current);
    if (zone) return zone;
    const next = links.find((l) => l.name === current);
    if (!next) return undefined;
    current = next.target;
  }
  return undefined;
}
