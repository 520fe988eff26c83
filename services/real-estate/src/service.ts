import { buildCatalogueService, catalogueManifest, defineIngestion } from "@apiplat/catalogue";
import { defineService } from "@apiplat/service-kit";
import { datasetSources } from "./ingest/datasets.js";
import { estimateRoutes } from "./routes/estimate.js";
import { propertyRoutes } from "./routes/properties.js";
import { snapshotReader } from "./store/snapshot.js";
import { readSettings, type RealEstateSettings } from "./settings.js";

/** `npm run ingest -- real-estate [--source king-county-sales,sacramento-sales,new-york-listings]`. */
export const ingestion = defineIngestion({ sources: () => datasetSources() });

export default defineService<RealEstateSettings>({
  name: "real-estate",
  description: "US property search, property details and automated valuations (comparable sales with hedonic adjustments) over real listings and sales.",
  settings: readSettings,
  ...catalogueManifest(import.meta.url),
  async build({ app, platform, settings, background, readiness }) {
    const { db, now } = platform;
    await buildCatalogueService(
      { app, platform, background, readiness },
      {
        sources: datasetSources(now),
        tables: ["properties"],
        autoLoad: settings.autoLoad,
        async routes(scope) {
          const snapshot = snapshotReader(db);
          await scope.register(propertyRoutes, { db, snapshot });
          await scope.register(estimateRoutes, { db, snapshot });
        },
      },
    );
  },
});
