import { defineService } from "@apiplat/service-kit";
import type { GeocodingIndex } from "./domain/build.js";
import { loadGeocodingIndex } from "./geonames/load-index.js";
import { geocodingRoutes } from "./routes/geocoding.js";
import { readSettings, type GeocodingSettings } from "./settings.js";

export interface GeocodingInject {
  /** An index already built (it takes seconds): tests and benchmarks share one. */
  index: GeocodingIndex;
}

/** Built once per process (it takes seconds) and shared by every app built from it. */
let processIndex: GeocodingIndex | undefined;

/** Builds or loads the index (benchmarks time it and share it between builds). */
export { loadGeocodingIndex };

export default defineService<GeocodingSettings, GeocodingInject>({
  name: "geocoding",
  description: "Forward and reverse geocoding of cities and towns from the GeoNames gazetteer (places of 500+ inhabitants, CC BY 4.0).",
  settings: readSettings,
  examples: new URL("../openapi-examples.json", import.meta.url),
  async build({ app, settings, inject }) {
    const index = inject.index ?? (processIndex ??= loadGeocodingIndex(settings.files, { snapshotDir: settings.snapshotDir }));
    await app.register(geocodingRoutes, { index });
    app.log.info(
      { places: index.gazetteer.count, names: index.gazetteer.nameIndex.keyCount, build_ms: index.buildMs, built_from: index.builtFrom },
      "gazetteer index ready",
    );
  },
});
