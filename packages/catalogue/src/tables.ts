/**
 * The catalogue's standard tables (ingestion runs, the search vocabulary, pg_trgm), which every catalogue service
 * declares in its manifest: `sharedTables: [catalogueTables]`. They are created in the service's own schema, before
 * its own migrations, and recorded in its ledger under the namespace "catalogue".
 */
export const catalogueTables = { namespace: "catalogue", migrations: new URL("../migrations", import.meta.url) } as const;
