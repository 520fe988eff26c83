export * from "./signing.js";
export * from "./retry.js";
export * from "./send.js";
