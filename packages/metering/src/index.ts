import { fileURLToPath } from "node:url";

export * from "./calendar.js";
export * from "./usage-log.js";
export * from "./plugin.js";
export * from "./billing.js";
export * from "./billable.js";
export * from "./usage-store.js";

export const meteringMigrations = fileURLToPath(new URL("../migrations", import.meta.url));
