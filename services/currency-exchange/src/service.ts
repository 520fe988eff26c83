import { existsSync } from "node:fs";
import { defineService } from "@apiplat/service-kit";
import { FeedFetcher, type FetchOutcome } from "./rates/fetcher.js";
import { ingestPaths, type IngestedFile } from "./rates/ingest.js";
import { RatesService } from "./app/rates-service.js";
import { DailySchedule } from "./rates/scheduler.js";
import { rateRoutes } from "./routes/rates.js";
import { settingsFromConfig, type CurrencySettings } from "./settings.js";
import { RateStore } from "./store/rate-store.js";

/** What tests drive besides HTTP. */
export interface CurrencyRuntime {
  store: RateStore;
  rates: RatesService;
  fetcher: FeedFetcher;
  /** Fetches every configured feed now; stored tables become visible at once. */
  fetchNow(): Promise<FetchOutcome[]>;
  ingest(paths: string[], historyDays?: number | null): Promise<IngestedFile[]>;
}

export interface CurrencyInject {
  /** Receives the built service's runtime (a test fetches or ingests on demand through it). */
  onRuntime(runtime: CurrencyRuntime): void;
}

export default defineService<CurrencySettings, CurrencyInject>({
  name: "currency-exchange",
  description:
    "Foreign-exchange reference rates of 150+ fiat currencies from official central-bank feeds (ECB, NBP tables A and B, " +
    "Banca d'Italia, Bank of Russia, Bank of Canada), rebased through the euro, with conversion in exact decimal arithmetic.",
  settings: (_env, config) => settingsFromConfig(config),
  migrations: new URL("../migrations", import.meta.url),
  examples: new URL("../openapi-examples.json", import.meta.url),
  async build({ app, platform, settings, inject, background, readiness }) {
    const store = new RateStore(platform.db);
    readiness("rates", async () => {
      if (await store.isEmpty()) throw new Error("no rates stored yet: no seed and no successful fetch");
    });
    const rates = new RatesService(store, platform.kv, platform.now, app.log);
    const fetcher = new FeedFetcher(store, settings.feeds, settings.fetch, platform.now);

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
        const report = await ingestPaths(store, paths, platform.now, historyDays);
        await rates.ratesChanged();
        return report;
      },
    };
    inject.onRuntime?.(runtime);

    const seedPaths = settings.seedPaths.filter((p) => existsSync(p));
    if (seedPaths.length > 0 && (await store.isEmpty())) {
      const report = await runtime.ingest(seedPaths, settings.seedHistoryDays);
      app.log.info({ files: report.filter((f) => !f.skipped).length, tables: report.reduce((n, f) => n + f.tables, 0) }, "seeded rates from files");
    }
    background({ name: "rates version follower", start: () => rates.start(), stop: () => rates.stop() });

    const schedule = new DailySchedule(
      settings.schedule,
      platform.kv,
      platform.now,
      () => runtime.fetchNow(),
      (error) => app.log.error({ err: error }, "scheduled fetch failed"),
    );
    background({
      name: "daily feed fetch",
      start() {
        schedule.start();
        if (settings.fetchOnStart) void runtime.fetchNow().catch((error) => app.log.error({ err: error }, "start-up fetch failed"));
      },
      stop: () => schedule.stop(),
    });

    await app.register(rateRoutes, { rates, store });
  },
});
