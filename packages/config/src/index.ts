export * from "./services.js";
export * from "./config.js";
export * from "./plans.js";
export * from "./env.js";
