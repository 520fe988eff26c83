import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "url-shortener",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
