export * from "./blocklist.js";
export * from "./checker.js";
export * from "./safe-browsing.js";
export * from "./url.js";
export * from "./configured.js";
