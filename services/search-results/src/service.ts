import { answerCacheSettings, catalogueSourcesRoutes, catalogueTables, createAnswerCache, createCatalogueLoader, defineIngestion, type IngestionSource } from "@apiplat/catalogue";
import { createOutboundClient } from "@apiplat/outbound-guard";
import { defineService } from "@apiplat/service-kit";
import { crawlSource } from "./ingest/crawler.js";
import { datasetSources } from "./ingest/datasets.js";
import { imageRoutes } from "./routes/images.js";
import { newsRoutes } from "./routes/news.js";
import { webRoutes } from "./routes/web.js";
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
    return [crawlSource({ ...crawl, seeds: options.crawl, outbound: createOutboundClient({ allowCidrs: config.outboundAllowCidrs, userAgent: crawl.userAgent }) })];
  },
});

export default defineService<SearchResultsSettings>({
  name: "search-results",
  description: "Web, image and news search results shaped like SerpAPI's, over an index of real pages (Wikipedia films and biographies, Stack Exchange), COCO captions and news headlines, with a polite crawler.",
  settings: readSettings,
  ownSchema: true,
  sharedTables: [catalogueTables],
  migrations: new URL("../migrations", import.meta.url),
  examples: new URL("../openapi-examples.json", import.meta.url),
  async build({ app, platform, settings, background, readiness }) {
    const { db, config, now } = platform;
    const answers = createAnswerCache(answerCacheSettings(config.env));
    const datasets = datasetSources();
    const loader = createCatalogueLoader({
      db,
      sources: datasets,
      tables: ["web_pages", "images", "news_articles"],
      context: { datasetsDir: config.datasetsDir, now },
      log: app.log,
      enabled: settings.autoLoad,
    });
    background(loader.work);
    readiness("catalogue", async () => loader.ready());
    const listed = [...datasets, crawlSource({ ...settings.crawl, seeds: [], outbound: createOutboundClient({ allowCidrs: [] }) })];
    await app.register(async (catalogue) => {
      loader.guard(catalogue);
      answers.attach(catalogue);
      await catalogue.register(webRoutes, { db, ranking: { titleBoost: settings.titleBoost, anyWord: settings.anyWord, relatedDepth: RELATED_DEPTH } });
      await catalogue.register(imageRoutes, { db });
      await catalogue.register(newsRoutes, { db });
      await catalogue.register(catalogueSourcesRoutes, { db, sources: listed });
    });
  },
});
