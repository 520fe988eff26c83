import { existsSync } from "node:fs";
import { createServiceApp, type PlatformDeps, type ServiceApp } from "@apiplat/service-kit";
import { FeedFetcher, type FetchOutcome } from "./fetcher.js";
import { ingestPaths, type IngestedFile } from "./ingest.js";
import { RatesService } from "./rates-service.js";
import { rateRoutes } from "./routes/rates.js";
import { DailySchedule } from "./scheduler.js";
import { offlineSettings, settingsFromConfig, type CurrencySettings } from "./settings.js";
import { RateStore } from "./store/rate-store.js";

export type CurrencyExchangeDeps = PlatformDeps;

/** What tests and the ingest command drive besides HTTP. */
export interface CurrencyRuntime {
  store: RateStore;
  rates: RatesService;
  fetcher: FeedFetcher;
  /** Fetches every configured feed now; stored tables become visible at once. */
  fetchNow(): Promise<FetchOutcome[]>;
  ingest(paths: string[], historyDays?: number | null): Promise<IngestedFile[]>;
}

export async function buildCurrencyApp(
  deps: CurrencyExchangeDeps,
  settings: CurrencySettings = offlineSettings(),
): Promise<{ app: ServiceApp; runtime: CurrencyRuntime }> {
  const store = new RateStore(deps.db);
  const app = await createServiceApp({
    service: "currency-exchange",
    deps,
    readiness: {
      rates: async () => {
        if (await store.isEmpty()) throw new Error("no rates stored yet: no seed and no successful fetch");
      },
    },
    migrations: new URL("../migrations", import.meta.url),
    description:
      "Foreign-exchange reference rates of 150+ fiat currencies from official central-bank feeds (ECB, NBP tables A and B, " +
      "Banca d'Italia, Bank of Russia, Bank of Canada), rebased through the euro, with conversion in exact decimal arithmetic.",
  });
  const rates = new RatesService(store, deps.kv, deps.now, app.log);
  const fetcher = new FeedFetcher(store, settings.feeds, settings.fetch, deps.now);

  const runtime: CurrencyRuntime = {
    store,
    rates,
    fetcher,
    async fetchNow() {
      const outcomes = await fetcher.fetchAll();
      for (const o of outcomes) {
        if (o.ok) app.log.info({ source: o.source, tables: o.tables, latest_date: o.latestDate }, "feed fetched");
        else app.log.warn({ source: o.source, attempts: o.attempts, error: o.error }, "feed fetch failed; last good rates kept");
      }
      if (outcomes.some((o) => o.ok)) await rates.ratesChanged();
      return outcomes;
    },
    async ingest(paths, historyDays = null) {
      const report = await ingestPaths(store, paths, deps.now, historyDays);
      await rates.ratesChanged();
      return report;
    },
  };

  const seedPaths = settings.seedPaths.filter((p) => existsSync(p));
  if (seedPaths.length > 0 && (await store.isEmpty())) {
    const report = await runtime.ingest(seedPaths, settings.seedHistoryDays);
    app.log.info({ files: report.filter((f) => !f.skipped).length, tables: report.reduce((n, f) => n + f.tables, 0) }, "seeded rates from files");
  }
  await rates.start();

  const schedule = new DailySchedule(settings.schedule, deps.kv, deps.now, () => runtime.fetchNow(), (error) =>
    app.log.error({ err: error }, "scheduled fetch failed"),
  );
  app.addHook("onReady", async () => {
    schedule.start();
    if (settings.fetchOnStart) void runtime.fetchNow().catch((error) => app.log.error({ err: error }, "start-up fetch failed"));
  });
  app.addHook("onClose", async () => {
    await schedule.stop();
    await rates.stop();
  });

  await app.register(rateRoutes, { rates, store });
  return { app, runtime };
}

export async function buildApp(deps: CurrencyExchangeDeps, settings?: CurrencySettings): Promise<ServiceApp> {
  return (await buildCurrencyApp(deps, settings)).app;
}

export const service = {
  name: "currency-exchange" as const,
  build: (platform: PlatformDeps) => buildApp({ ...platform }, settingsFromConfig(platform.config)),
};
