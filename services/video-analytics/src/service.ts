import { answerCacheSettings, catalogueSourcesRoutes, catalogueTables, createAnswerCache, createCatalogueLoader, defineIngestion, liveIngestionScheduler } from "@apiplat/catalogue";
import { createOutboundClient, type OutboundClient } from "@apiplat/outbound-guard";
import { defineService } from "@apiplat/service-kit";
import { datasetSources } from "./ingest/datasets.js";
import { youtubeSource } from "./ingest/youtube.js";
import { channelRoutes } from "./routes/channels.js";
import { searchRoutes } from "./routes/search.js";
import { trendingRoutes } from "./routes/trending.js";
import { videoRoutes } from "./routes/videos.js";
import { readSettings, type VideoSettings } from "./settings.js";

interface VideoInject {
  outbound: OutboundClient;
}

function sources(settings: VideoSettings, outbound: OutboundClient) {
  const live = settings.youtubeApiKey
    ? [youtubeSource({ apiKey: settings.youtubeApiKey, regions: settings.regions, base: settings.youtubeApiBase, dailyQuota: settings.dailyQuota, outbound })]
    : [];
  return [...datasetSources(), ...live];
}

/** `npm run ingest -- video-analytics [--source trending-us,...]`; `--source youtube-api` with YOUTUBE_API_KEY set. */
export const ingestion = defineIngestion({
  sources: ({ config }) => sources(readSettings(config.env), createOutboundClient({ allowCidrs: config.outboundAllowCidrs })),
});

export default defineService<VideoSettings, VideoInject>({
  name: "video-analytics",
  description: "YouTube video and channel analytics over real trending snapshots, with search and trending by country; live snapshots from the YouTube Data API v3.",
  settings: readSettings,
  ownSchema: true,
  sharedTables: [catalogueTables],
  migrations: new URL("../migrations", import.meta.url),
  examples: new URL("../openapi-examples.json", import.meta.url),
  async build({ app, platform, settings, inject, background, readiness }) {
    const { db, config, now } = platform;
    const answers = createAnswerCache(answerCacheSettings(config.env));
    const outbound = inject.outbound ?? createOutboundClient({ allowCidrs: config.outboundAllowCidrs });
    const all = sources(settings, outbound);
    const loader = createCatalogueLoader({
      db,
      sources: all,
      tables: ["snapshots"],
      context: { datasetsDir: config.datasetsDir, now },
      log: app.log,
      enabled: settings.autoLoad,
    });
    background(loader.work);
    readiness("catalogue", async () => loader.ready());
    const live = all.find((s) => s.live);
    if (live) {
      background(
        liveIngestionScheduler({
          db,
          source: live,
          intervalMs: settings.fetchIntervalMs,
          datasetsDir: config.datasetsDir,
          now,
          after: loader.loaded,
          onRun: (summary) => {
            answers.clear();
            app.log.info({ ...summary, skipped: summary.skipped.slice(0, 3) }, "video-analytics: YouTube snapshots fetched");
          },
        }),
      );
    }
    await app.register(async (catalogue) => {
      loader.guard(catalogue);
      answers.attach(catalogue);
      await catalogue.register(videoRoutes, { db });
      await catalogue.register(channelRoutes, { db });
      await catalogue.register(searchRoutes, { db });
      await catalogue.register(trendingRoutes, { db });
      await catalogue.register(catalogueSourcesRoutes, { db, sources: all });
    });
  },
});
