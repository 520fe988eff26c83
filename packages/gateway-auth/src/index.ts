import { fileURLToPath } from "node:url";

export * from "./keys.js";
export * from "./account-store.js";
export * from "./ttl-cache.js";
export * from "./plugin.js";

export const gatewayAuthMigrations = fileURLToPath(new URL("../migrations", import.meta.url));
