export * from "./test-platform.js";
export * from "./http-request.js";
export * from "./ssrf-targets.js";
