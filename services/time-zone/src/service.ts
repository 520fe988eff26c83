import { defineService } from "@apiplat/service-kit";
import { TimeZones } from "./domain/time-zones.js";
import { timeZoneRoutes } from "./routes/time-zone.js";
import { readSettings, type TimeZoneSettings } from "./settings.js";
import { ZoneDatabase } from "./zoneinfo/zone-database.js";

export interface TimeZoneInject {
  /** An already loaded tz database (a benchmark shares one between builds). */
  zones: TimeZones;
}

/** Reads the compiled tz database under `zoneinfoDir` (a few hundred TZif files, about 100 ms). */
export function loadTimeZones(zoneinfoDir: string): TimeZones {
  return new TimeZones(ZoneDatabase.load(zoneinfoDir));
}

/** The route plugin alone, for the bare-Fastify baseline of the benchmarks. */
export { timeZoneRoutes as routes };

export default defineService<TimeZoneSettings, TimeZoneInject>({
  name: "time-zone",
  description:
    "Current time, UTC offset, DST status and abbreviation of every IANA zone, and conversions between zones, " + "computed locally from the tz database.",
  settings: readSettings,
  examples: new URL("../openapi-examples.json", import.meta.url),
  async build({ app, platform, settings, inject }) {
    const zones = inject.zones ?? loadTimeZones(settings.zoneinfoDir);
    await app.register(timeZoneRoutes, { zones, now: platform.now });
  },
});
