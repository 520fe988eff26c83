/** The time-zone bench server (see bench/lib/bench-server.ts). */
import { serveForBenchmark } from "../lib/bench-server.js";
import { buildApp } from "../../services/time-zone/src/app.js";
import { TimeZones } from "../../services/time-zone/src/domain/time-zones.js";
import { ZoneDatabase } from "../../services/time-zone/src/domain/zone-database.js";
import { timeZoneRoutes } from "../../services/time-zone/src/routes/time-zone.js";

const zones = new TimeZones(ZoneDatabase.load(process.env.TIME_ZONE_ZONEINFO_DIR || undefined));

await serveForBenchmark(process.argv[2] ?? "platform", {
  service: "time-zone",
  buildPlatformApp: (deps) => buildApp({ ...deps, zones }),
  registerBareRoutes: (app) => app.register(timeZoneRoutes, { zones, now: () => new Date() }),
});
