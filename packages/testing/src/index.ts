export * from "./test-platform.js";
export * from "./http-request.js";
export * from "./start-service.js";
export * from "./ssrf-targets.js";
export * from "./seeded-random.js";
export * from "./edge.js";
export * from "./replicas.js";
export * from "./error-sentences.js";
