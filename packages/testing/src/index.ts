export * from "./test-platform.js";
