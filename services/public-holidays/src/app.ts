import { createServiceApp, type PlatformDeps, type ServiceApp } from "@apiplat/service-kit";
import { HolidayEngine } from "./domain/engine.js";
import { countryNamesIndex } from "./domain/suggest.js";
import { MAX_YEAR } from "./domain/types.js";
import { DATA_VERSION, HolidayCache } from "./holiday-cache.js";
import { holidayRoutes } from "./routes/holidays.js";

export interface PublicHolidaysDeps extends PlatformDeps {
  /** Compute (or load from the store) this year and next for every country right after start. */
  warmUp?: boolean;
}

/** Building the engine parses every country's rules once (~0.1 s); apps in one process share it. */
let sharedEngine: HolidayEngine | undefined;

export async function buildApp(deps: PublicHolidaysDeps): Promise<ServiceApp> {
  const engine = (sharedEngine ??= new HolidayEngine());
  countryNamesIndex(); // built once up front rather than on the first unknown country
  const app = await createServiceApp({
    service: "public-holidays",
    deps,
    description:
      `Public holidays of ${engine.listCountries().length} countries and their subdivisions, computed locally ` +
      `(${DATA_VERSION}); years 1975 to 2100.`,
  });
  const cache = new HolidayCache(engine, deps.kv, deps.now, (error) =>
    app.log.warn({ err: error }, "holiday cache store failed; computing instead"),
  );
  await app.register(holidayRoutes, { engine, cache, now: deps.now, dataVersion: DATA_VERSION });
  if (deps.warmUp) startWarmUp(app, engine, cache, deps.now);
  return app;
}

function startWarmUp(app: ServiceApp, engine: HolidayEngine, cache: HolidayCache, now: () => Date): void {
  let closing = false;
  app.addHook("onClose", async () => {
    closing = true;
  });
  app.addHook("onReady", async () => {
    const year = now().getUTCFullYear();
    const years = [year, year + 1].filter((candidate) => candidate <= MAX_YEAR);
    const codes = engine.listCountries().map((country) => country.code);
    const started = Date.now();
    cache.warm(codes, years, () => closing).then(
      (count) => app.log.info({ country_years: count, ms: Date.now() - started }, "holiday cache warmed"),
      (error) => app.log.warn({ err: error }, "holiday cache warm-up stopped"),
    );
  });
}

/** Reads the service's own settings from the environment (main.ts and start-all only). */
export function depsFromEnvironment(platform: PlatformDeps): PublicHolidaysDeps {
  return { ...platform, warmUp: platform.config.env.PUBLIC_HOLIDAYS_WARM_UP !== "false" };
}

export const service = {
  name: "public-holidays" as const,
  build: (platform: PlatformDeps) => buildApp(depsFromEnvironment(platform)),
};
