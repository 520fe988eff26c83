import { buildCatalogueService, catalogueManifest, defineIngestion } from "@apiplat/catalogue";
import { outboundClientFor, type OutboundClient } from "@apiplat/outbound-guard";
import { defineService } from "@apiplat/service-kit";
import { datasetSources } from "./ingest/datasets.js";
import { secEdgarSource } from "./ingest/sec-edgar.js";
import { companyRoutes } from "./routes/companies.js";
import { searchRoutes } from "./routes/search.js";
import { companySearchReader } from "./store/company-snapshot.js";
import { readSettings, type CompanyDataSettings } from "./settings.js";

interface CompanyDataInject {
  outbound: OutboundClient;
}

function sources(settings: CompanyDataSettings, outbound: OutboundClient) {
  const live = settings.secUserAgent
    ? [
        secEdgarSource({
          userAgent: settings.secUserAgent,
          wwwBase: settings.secWwwBase,
          dataBase: settings.secDataBase,
          requestsPerSecond: settings.secRequestsPerSecond,
          ciks: settings.secCiks,
          maxSubmissions: settings.secMaxSubmissions,
          outbound,
        }),
      ]
    : [];
  return [...datasetSources(), ...live];
}

/** `npm run ingest -- company-data [--source sec-tickers,fortune-1000,...]`; `--source sec-edgar` with SEC_USER_AGENT set. */
export const ingestion = defineIngestion({
  sources: ({ config }) => sources(readSettings(config.env), outboundClientFor(config)),
});

export default defineService<CompanyDataSettings, CompanyDataInject>({
  name: "company-data",
  description:
    "Company profiles merged from SEC EDGAR, the Fortune 1000, DBpedia and People Data Labs: search by name, ticker, sector and size, full profiles with per-field provenance and recent filings, lookup by domain.",
  settings: readSettings,
  ...catalogueManifest(import.meta.url),
  async build({ app, platform, settings, inject, background, readiness }) {
    const { db, config } = platform;
    await buildCatalogueService(
      { app, platform, background, readiness },
      {
        sources: sources(settings, inject.outbound ?? outboundClientFor(config)),
        tables: ["sec_tickers", "fortune_companies"],
        autoLoad: settings.autoLoad,
        live: { intervalMs: settings.secFetchIntervalMs, logLine: "company-data: SEC EDGAR fetched" },
        // Profiles are answered from stored JSON (in jsonb's key order, with internal fields): the schemas choose and order them.
        serializeAsWritten: false,
        async routes(scope) {
          await scope.register(searchRoutes, { db, companies: companySearchReader(db) });
          await scope.register(companyRoutes, { db });
        },
      },
    );
  },
});
