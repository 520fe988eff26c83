import { buildCatalogueService, catalogueManifest, defineIngestion } from "@apiplat/catalogue";
import { outboundClientFor, type OutboundClient } from "@apiplat/outbound-guard";
import { defineService } from "@apiplat/service-kit";
import { datasetSources } from "./ingest/datasets.js";
import { feedSource, type FeedConfig } from "./ingest/feeds.js";
import { articleRoutes } from "./routes/articles.js";
import { articleCatalogue } from "./store/article-catalogue.js";
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
  sources: ({ config }) => sources(readSettings(config.env).feeds, outboundClientFor(config)),
});

export default defineService<NewsSettings, NewsInject>({
  name: "news",
  description: "News search, top headlines, sources and trending topics over a catalogue of real headlines, with live RSS/Atom ingestion.",
  settings: readSettings,
  ...catalogueManifest(import.meta.url),
  async build({ app, platform, settings, inject, background, readiness }) {
    const { db, config } = platform;
    const all = sources(settings.feeds, inject.outbound ?? outboundClientFor(config));
    await buildCatalogueService(
      { app, platform, background, readiness },
      {
        sources: all,
        tables: ["articles"],
        autoLoad: settings.autoLoad,
        live: settings.feeds.length > 0 ? { intervalMs: settings.feedIntervalMs, logLine: "news: feeds fetched" } : undefined,
        // News answers /sources itself, in NewsAPI's shape.
        listed: false,
        async routes(scope) {
          await scope.register(articleRoutes, { db, catalogue: articleCatalogue(db) });
          await scope.register(sourceRoutes, { db, datasets: all });
          await scope.register(trendingRoutes, { db });
        },
      },
    );
  },
});
