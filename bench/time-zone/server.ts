/** The time-zone bench server (see bench/lib/bench-server.ts). */
import { serveForBenchmark } from "../lib/bench-server.js";
import { buildService } from "@apiplat/service-kit";
import timeZone, { loadTimeZones, routes } from "@apiplat/time-zone";

const zones = loadTimeZones(process.env.TIME_ZONE_ZONEINFO_DIR || "/usr/share/zoneinfo");

await serveForBenchmark(process.argv[2] ?? "platform", {
  service: "time-zone",
  buildPlatformApp: (deps) => buildService(timeZone, deps, { inject: { zones } }),
  registerBareRoutes: (app) => app.register(routes, { zones, now: () => new Date() }),
});
