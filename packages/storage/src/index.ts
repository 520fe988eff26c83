export * from "./database.js";
export * from "./postgres.js";
export * from "./embedded.js";
export * from "./migrations.js";
export * from "./key-value.js";
export * from "./memory-store.js";
export * from "./redis-store.js";
export * from "./open.js";
