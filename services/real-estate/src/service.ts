import { answerCacheSettings, catalogueSourcesRoutes, catalogueTables, createAnswerCache, createCatalogueLoader, defineIngestion } from "@apiplat/catalogue";
import { defineService } from "@apiplat/service-kit";
import { datasetSources } from "./ingest/datasets.js";
import { estimateRoutes } from "./routes/estimate.js";
import { propertyRoutes } from "./routes/properties.js";
import { readSettings, type RealEstateSettings } from "./settings.js";

/** `npm run ingest -- real-estate [--source king-county-sales,sacramento-sales,new-york-listings]`. */
export const ingestion = defineIngestion({ sources: () => datasetSources() });

export default defineService<RealEstateSettings>({
  name: "real-estate",
  description: "US property search, property details and automated valuations (comparable sales with hedonic adjustments) over real listings and sales.",
  settings: readSettings,
  ownSchema: true,
  sharedTables: [catalogueTables],
  migrations: new URL("../migrations", import.meta.url),
  examples: new URL("../openapi-examples.json", import.meta.url),
  async build({ app, platform, settings, background, readiness }) {
    const { db, config, now } = platform;
    const answers = createAnswerCache(answerCacheSettings(config.env));
    const sources = datasetSources(now);
    const loader = createCatalogueLoader({
      db,
      sources,
      tables: ["properties"],
      context: { datasetsDir: config.datasetsDir, now },
      log: app.log,
      enabled: settings.autoLoad,
    });
    background(loader.work);
    readiness("catalogue", async () => loader.ready());
    await app.register(async (catalogue) => {
      loader.guard(catalogue);
      answers.attach(catalogue);
      await catalogue.register(propertyRoutes, { db });
      await catalogue.register(estimateRoutes, { db });
      await catalogue.register(catalogueSourcesRoutes, { db, sources });
    });
  },
});
