import { defineService, type BackgroundWork, type ServiceApp } from "@apiplat/service-kit";
import { DATA_VERSION, HolidayCache } from "./cache/holiday-cache.js";
import { HolidayEngine } from "./domain/engine.js";
import { countryNamesIndex } from "./domain/suggest.js";
import { MAX_YEAR } from "./domain/types.js";
import { holidayRoutes } from "./routes/holidays.js";
import { readSettings, type PublicHolidaysSettings } from "./settings.js";

/** Building the engine parses every country's rules once (~0.1 s); apps in one process share it. */
let sharedEngine: HolidayEngine | undefined;

export default defineService<PublicHolidaysSettings>({
  name: "public-holidays",
  description: `Public holidays of over 200 countries and their subdivisions, computed locally (${DATA_VERSION}); years 1975 to 2100.`,
  settings: readSettings,
  examples: new URL("../openapi-examples.json", import.meta.url),
  async build({ app, platform, settings, background }) {
    const engine = (sharedEngine ??= new HolidayEngine());
    countryNamesIndex(); // built once up front rather than on the first unknown country
    const cache = new HolidayCache(engine, platform.kv, platform.now, (error) =>
      app.log.warn({ err: error }, "holiday cache store failed; computing instead"),
    );
    await app.register(holidayRoutes, { engine, cache, now: platform.now, dataVersion: DATA_VERSION });
    if (settings.warmUp) background(warmUp(app, engine, cache, platform.now));
  },
});

/** Fills the cache with this year and next for every country, without holding up the start; stops when the app closes. */
function warmUp(app: ServiceApp, engine: HolidayEngine, cache: HolidayCache, now: () => Date): BackgroundWork {
  let closing = false;
  return {
    name: "holiday cache warm-up",
    start() {
      const year = now().getUTCFullYear();
      const years = [year, year + 1].filter((candidate) => candidate <= MAX_YEAR);
      const codes = engine.listCountries().map((country) => country.code);
      const started = Date.now();
      cache.warm(codes, years, () => closing).then(
        (count) => app.log.info({ country_years: count, ms: Date.now() - started }, "holiday cache warmed"),
        (error) => app.log.warn({ err: error }, "holiday cache warm-up stopped"),
      );
    },
    stop() {
      closing = true;
    },
  };
}
