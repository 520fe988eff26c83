import { buildCatalogueService, catalogueManifest, defineIngestion } from "@apiplat/catalogue";
import { defineService } from "@apiplat/service-kit";
import { datasetSources } from "./ingest/datasets.js";
import { productRoutes } from "./routes/products.js";
import { productCatalogue } from "./store/product-catalogue.js";
import { reviewRoutes } from "./routes/reviews.js";
import { reviewCatalogue } from "./store/review-catalogue.js";
import { readSettings, type ProductDataSettings } from "./settings.js";

/** `npm run ingest -- product-data [--source amazon-ca-products,fine-food-reviews]`. */
export const ingestion = defineIngestion({ sources: () => datasetSources() });

export default defineService<ProductDataSettings>({
  name: "product-data",
  description: "Amazon product search, product details and reviews by ASIN, over real amazon.ca catalogue rows (CAD) and amazon.com Fine Food reviews.",
  settings: readSettings,
  ...catalogueManifest(import.meta.url),
  async build({ app, platform, settings, background, readiness }) {
    const { db } = platform;
    await buildCatalogueService(
      { app, platform, background, readiness },
      {
        sources: datasetSources(),
        tables: ["products", "reviews"],
        autoLoad: settings.autoLoad,
        async routes(scope) {
          await scope.register(productRoutes, { db, catalogue: productCatalogue(db) });
          await scope.register(reviewRoutes, { db, catalogue: reviewCatalogue(db) });
        },
      },
    );
  },
});
