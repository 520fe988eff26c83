import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { defineService, type BackgroundWork, type ServiceApp } from "@apiplat/service-kit";
import { DATA_VERSION, HolidayCache } from "./cache/holiday-cache.js";
import { extendLibraryTables, type MonthTable } from "./domain/calendar-tables.js";
import { HolidayEngine } from "./domain/engine.js";
import { countryNamesIndex } from "./domain/suggest.js";
import { MAX_YEAR } from "./domain/types.js";
import { holidayRoutes } from "./routes/holidays.js";
import { readSettings, type PublicHolidaysSettings } from "./settings.js";

/** Building the engine parses every country's rules once (~0.1 s); apps in one process share it. */
let sharedEngine: HolidayEngine | undefined;
let tablesExtended: Promise<void> | undefined;

/**
 * date-holidays-parser's month tables: the module instances its Islamic and Hebrew calendars read (not among its
 * exports, so reached by file), extended once per process (domain/calendar-tables.ts says why).
 */
async function extendEngineTables(): Promise<void> {
  const holidaysDir = dirname(realpathSync(createRequire(import.meta.url).resolve("date-holidays/package.json")));
  const parserDir = dirname(realpathSync(createRequire(join(holidaysDir, "package.json")).resolve("date-holidays-parser/package.json")));
  const table = async (file: string) => ((await import(pathToFileURL(join(parserDir, "src/internal", file)).href)) as { calendar: MonthTable }).calendar;
  extendLibraryTables({ hijri: await table("hijri-calendar.js"), hebrew: await table("hebrew-calendar.js") });
}

export default defineService<PublicHolidaysSettings>({
  name: "public-holidays",
  description: `Public holidays of over 200 countries and their subdivisions, computed locally (${DATA_VERSION}); years 1975 to 2100.`,
  settings: readSettings,
  examples: new URL("../openapi-examples.json", import.meta.url),
  async build({ app, platform, settings, background }) {
    await (tablesExtended ??= extendEngineTables());
    const engine = (sharedEngine ??= new HolidayEngine());
    countryNamesIndex(); // built once up front rather than on the first unknown country
    const cache = new HolidayCache(engine, platform.kv, platform.now, (error) => app.log.warn({ err: error }, "holiday cache store failed; computing instead"));
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
      cache
        .warm(codes, years, () => closing)
        .then(
          (count) => app.log.info({ country_years: count, ms: Date.now() - started }, "holiday cache warmed"),
          (error) => app.log.warn({ err: error }, "holiday cache warm-up stopped"),
        );
    },
    stop() {
      closing = true;
    },
  };
}
