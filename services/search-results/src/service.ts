import { buildCatalogueService, catalogueManifest, defineIngestion, type IngestionSource } from "@apiplat/catalogue";
import { createOutboundClient } from "@apiplat/outbound-guard";
import { defineService } from "@apiplat/service-kit";
import { crawlSource } from "./ingest/crawler.js";
import { datasetSources } from "./ingest/datasets.js";
import { imageRoutes } from "./routes/images.js";
import { newsRoutes } from "./routes/news.js";
import { webRoutes } from "./routes/web.js";
import { searchCatalogue } from "./store/search-catalogue.js";
import { crawlSettings, readSettings, type SearchResultsSettings } from "./settings.js";

const RELATED_DEPTH = 20;

/**
 * `npm run ingest -- search-results [--source wikipedia-films,...]` loads the datasets;
 * `npm run ingest -- search-results --crawl <seed urls> [--max-pages N] [--max-bytes N] [--delay-ms N] [--any-host]`
 * crawls instead (the crawl source alone, through the outbound guard).
 */
export const ingestion = defineIngestion({
  sources({ config, options }): IngestionSource<any, any>[] {
    if (!options.crawl) return datasetSources();
    if (options.crawl.length === 0) throw new Error("--crawl needs at least one seed URL");
    const crawl = crawlSettings(readSettings(config.env).crawl, options);
    return [
      crawlSource({ ...crawl, seeds: options.crawl, outbound: createOutboundClient({ allowCidrs: config.outboundAllowCidrs, userAgent: crawl.userAgent }) }),
    ];
  },
});

export default defineService<SearchResultsSettings>({
  name: "search-results",
  description:
    "Web, image and news search results shaped like SerpAPI's, over an index of real pages (Wikipedia films and biographies, Stack Exchange), COCO captions and news headlines, with a polite crawler.",
  settings: readSettings,
  ...catalogueManifest(import.meta.url),
  async build({ app, platform, settings, background, readiness }) {
    const { db } = platform;
    const datasets = datasetSources();
    await buildCatalogueService(
      { app, platform, background, readiness },
      {
        sources: datasets,
        tables: ["web_pages", "images", "news_articles"],
        autoLoad: settings.autoLoad,
        // /sources lists the crawler too (its runs are recorded like the datasets'); it never runs on its own.
        listed: [...datasets, crawlSource({ ...settings.crawl, seeds: [], outbound: createOutboundClient({ allowCidrs: [] }) })],
        async routes(scope) {
          const catalogue = searchCatalogue(db);
          await scope.register(webRoutes, {
            db,
            catalogue,
            ranking: { titleBoost: settings.titleBoost, anyWord: settings.anyWord, relatedDepth: RELATED_DEPTH },
          });
          await scope.register(imageRoutes, { db, catalogue });
          await scope.register(newsRoutes, { db, catalogue });
        },
      },
    );
  },
});
