import { createServiceApp, type PlatformDeps, type ServiceApp } from "@apiplat/service-kit";
import { TimeZones } from "./domain/time-zones.js";
import { DEFAULT_ZONEINFO_DIR, ZoneDatabase } from "./domain/zone-database.js";
import { timeZoneRoutes } from "./routes/time-zone.js";

export interface TimeZoneDeps extends PlatformDeps {
  /** The loaded tz database; by default read from TIME_ZONE_ZONEINFO_DIR or /usr/share/zoneinfo. */
  zones?: TimeZones;
}

/** Where the compiled tz database (TZif files and tzdata.zi) lives. */
export function zoneinfoDir(env: Record<string, string | undefined>): string {
  return env.TIME_ZONE_ZONEINFO_DIR || DEFAULT_ZONEINFO_DIR;
}

export async function buildApp(deps: TimeZoneDeps): Promise<ServiceApp> {
  const zones = deps.zones ?? new TimeZones(ZoneDatabase.load(zoneinfoDir(deps.config.env)));
  const app = await createServiceApp({
    service: "time-zone",
    deps,
    description:
      "Current time, UTC offset, DST status and abbreviation of every IANA zone, and conversions between zones, " +
      `computed locally from tz database ${zones.version}.`,
  });
  await app.register(timeZoneRoutes, { zones, now: deps.now });
  return app;
}

export const service = { name: "time-zone" as const, build: (platform: PlatformDeps) => buildApp(platform) };
