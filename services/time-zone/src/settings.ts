import type { Env } from "@apiplat/config";
import { DEFAULT_ZONEINFO_DIR } from "./zoneinfo/zone-database.js";

export interface TimeZoneSettings {
  /** Where the compiled tz database (TZif files and tzdata.zi) lives: TIME_ZONE_ZONEINFO_DIR, else /usr/share/zoneinfo. */
  zoneinfoDir: string;
}

export function readSettings(env: Env): TimeZoneSettings {
  return { zoneinfoDir: env.TIME_ZONE_ZONEINFO_DIR || DEFAULT_ZONEINFO_DIR };
}
