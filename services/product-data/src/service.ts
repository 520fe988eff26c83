import { answerCacheSettings, catalogueSourcesRoutes, catalogueTables, createAnswerCache, createCatalogueLoader, defineIngestion } from "@apiplat/catalogue";
import { defineService } from "@apiplat/service-kit";
import { datasetSources } from "./ingest/datasets.js";
import { productRoutes } from "./routes/products.js";
import { reviewRoutes } from "./routes/reviews.js";
import { readSettings, type ProductDataSettings } from "./settings.js";

/** `npm run ingest -- product-data [--source amazon-ca-products,fine-food-reviews]`. */
export const ingestion = defineIngestion({ sources: () => datasetSources() });

export default defineService<ProductDataSettings>({
  name: "product-data",
  description: "Amazon product search, product details and reviews by ASIN, over real amazon.ca catalogue rows (CAD) and amazon.com Fine Food reviews.",
  settings: readSettings,
  ownSchema: true,
  sharedTables: [catalogueTables],
  migrations: new URL("../migrations", import.meta.url),
  examples: new URL("../openapi-examples.json", import.meta.url),
  async build({ app, platform, settings, background, readiness }) {
    const { db, config, now } = platform;
    const answers = createAnswerCache(answerCacheSettings(config.env));
    const sources = datasetSources();
    const loader = createCatalogueLoader({
      db,
      sources,
      tables: ["products", "reviews"],
      context: { datasetsDir: config.datasetsDir, now },
      log: app.log,
      enabled: settings.autoLoad,
    });
    background(loader.work);
    readiness("catalogue", async () => loader.ready());
    await app.register(async (catalogue) => {
      loader.guard(catalogue);
      answers.attach(catalogue);
      await catalogue.register(productRoutes, { db });
      await catalogue.register(reviewRoutes, { db });
      await catalogue.register(catalogueSourcesRoutes, { db, sources });
    });
  },
});
