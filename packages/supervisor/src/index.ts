export * from "./local-postgres.js";
export * from "./supervisor.js";
