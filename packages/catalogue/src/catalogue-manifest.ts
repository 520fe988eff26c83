import type { ServiceManifest } from "@apiplat/service-kit";
import { catalogueTables } from "./tables.js";

/**
 * What every catalogue service's manifest declares alike, found from its src/service.ts (`import.meta.url`): its
 * tables in a schema of its own, the catalogue's standard tables created there first, `migrations/` and the recorded
 * `openapi-examples.json` beside `src/`.
 *
 * `defineService({ name, description, settings, ...catalogueManifest(import.meta.url), build })`
 */
export function catalogueManifest(serviceModuleUrl: string): Required<Pick<ServiceManifest, "ownSchema" | "sharedTables" | "migrations" | "examples">> {
  return {
    ownSchema: true,
    sharedTables: [catalogueTables],
    migrations: new URL("../migrations", serviceModuleUrl),
    examples: new URL("../openapi-examples.json", serviceModuleUrl),
  };
}
