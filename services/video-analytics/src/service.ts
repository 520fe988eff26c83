import { buildCatalogueService, catalogueManifest, defineIngestion } from "@apiplat/catalogue";
import { outboundClientFor, type OutboundClient } from "@apiplat/outbound-guard";
import { defineService } from "@apiplat/service-kit";
import { datasetSources } from "./ingest/datasets.js";
import { youtubeSource } from "./ingest/youtube.js";
import { channelRoutes } from "./routes/channels.js";
import { searchRoutes } from "./routes/search.js";
import { trendingRoutes } from "./routes/trending.js";
import { videoRoutes } from "./routes/videos.js";
import { videoCatalogue } from "./store/video-catalogue.js";
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
  sources: ({ config }) => sources(readSettings(config.env), outboundClientFor(config)),
});

export default defineService<VideoSettings, VideoInject>({
  name: "video-analytics",
  description:
    "YouTube video and channel analytics over real trending snapshots, with search and trending by country; live snapshots from the YouTube Data API v3.",
  settings: readSettings,
  ...catalogueManifest(import.meta.url),
  async build({ app, platform, settings, inject, background, readiness }) {
    const { db, config } = platform;
    await buildCatalogueService(
      { app, platform, background, readiness },
      {
        sources: sources(settings, inject.outbound ?? outboundClientFor(config)),
        tables: ["snapshots"],
        autoLoad: settings.autoLoad,
        live: { intervalMs: settings.fetchIntervalMs, logLine: "video-analytics: YouTube snapshots fetched" },
        async routes(scope) {
          await scope.register(videoRoutes, { db });
          await scope.register(channelRoutes, { db });
          await scope.register(searchRoutes, { db, catalogue: videoCatalogue(db) });
          await scope.register(trendingRoutes, { db });
        },
      },
    );
  },
});
