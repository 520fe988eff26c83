/** `npm run migrate`: applies the platform's and every service's numbered SQL migrations to DATABASE_URL. */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { loadConfig } from "@apiplat/config";
import { migratePlatform, openPlatform } from "@apiplat/service-kit";
import { migrate } from "@apiplat/storage";

const root = path.resolve(import.meta.dirname, "..");
const config = loadConfig();
if (!config.databaseUrl) {
  console.error("Set DATABASE_URL: the embedded database migrates itself when the services start.");
  process.exit(2);
}
const platform = await openPlatform(config);
await migratePlatform(platform);
for (const service of readdirSync(path.join(root, "services")).sort()) {
  const dir = path.join(root, "services", service, "migrations");
  if (!existsSync(dir)) continue;
  const applied = await migrate(platform.db, service, dir);
  console.log(`${service}: ${applied.length ? applied.join(", ") : "up to date"}`);
}
await platform.close();
