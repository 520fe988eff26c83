/** `npm run migrate`: applies the platform's and every service's numbered SQL migrations to DATABASE_URL. */
import { loadConfig } from "@apiplat/config";
import { migratePlatform, migrateService, openPlatform } from "@apiplat/service-kit";
import { deployedServices } from "@apiplat/deployment";

const config = loadConfig();
if (!config.databaseUrl) {
  console.error("Set DATABASE_URL: the local database of `npm start` is migrated by the services when they start.");
  process.exit(2);
}
const platform = await openPlatform(config);
await migratePlatform(platform);
for (const { name, manifest } of await deployedServices()) {
  if (!manifest?.migrations) continue;
  const applied = await migrateService(manifest, platform.db);
  console.log(`${name}: ${applied.length ? applied.join(", ") : "up to date"}`);
}
await platform.close();
