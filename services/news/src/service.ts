import { answerCacheSettings, catalogueTables, createAnswerCache, createCatalogueLoader, defineIngestion, liveIngestionScheduler } from "@apiplat/catalogue";
import { createOutboundClient, type OutboundClient } from "@apiplat/outbound-guard";
import { defineService } from "@apiplat/service-kit";
import { datasetSources } from "./ingest/datasets.js";
import { feedSource, type FeedConfig } from "./ingest/feeds.js";
import { articleRoutes } from "./routes/articles.js";
import { sourceRoutes } from "./routes/sources.js";
import { trendingRoutes } from "./routes/trending.js";
import { readSettings, type NewsSettings } from "./settings.js";

interface NewsInject {
  outbound: OutboundClient;
}

function sources(feeds: readonly FeedConfig[], outbound: OutboundClient) {
  return [...datasetSources(), feedSource({ feeds, outbound })];
}

/** `npm run ingest -- news [--source huffpost,...]`: the datasets, and the feeds of NEWS_FEEDS (`--source rss-feeds`). */
export const ingestion = defineIngestion({
  sources: ({ config }) => sources(readSettings(config.env).feeds, createOutboundClient({ allowCidrs: config.outboundAllowCidrs })),
});

export default defineService<NewsSettings, NewsInject>({
  name: "news",
  description: "News search, top headlines, sources and trending topics over a catalogue of real headlines, with live RSS/Atom ingestion.",
  settings: readSettings,
  ownSchema: true,
  sharedTables: [catalogueTables],
  migrations: new URL("../migrations", import.meta.url),
  examples: new URL("../openapi-examples.json", import.meta.url),
  async build({ app, platform, settings, inject, background, readiness }) {
    const { db, config, now } = platform;
    const answers = createAnswerCache(answerCacheSettings(config.env));
    const outbound = inject.outbound ?? createOutboundClient({ allowCidrs: config.outboundAllowCidrs });
    const all = sources(settings.feeds, outbound);
    const loader = createCatalogueLoader({
      db,
      sources: all,
      tables: ["articles"],
      context: { datasetsDir: config.datasetsDir, now },
      log: app.log,
      enabled: settings.autoLoad,
    });
    background(loader.work);
    readiness("catalogue", async () => loader.ready());
    if (settings.feeds.length > 0) {
      const feeds = all.find((s) => s.name === "rss-feeds")!;
      background(
        liveIngestionScheduler({
          db,
          source: feeds,
          intervalMs: settings.feedIntervalMs,
          datasetsDir: config.datasetsDir,
          now,
          after: loader.loaded,
          onRun: (summary) => {
            answers.clear();
            app.log.info({ ...summary, skipped: summary.skipped.slice(0, 3) }, "news: feeds fetched");
          },
        }),
      );
    }
    await app.register(async (catalogue) => {
      loader.guard(catalogue);
      answers.attach(catalogue);
      await catalogue.register(articleRoutes, { db });
      await catalogue.register(sourceRoutes, { db, datasets: all });
      await catalogue.register(trendingRoutes, { db });
    });
  },
});
