import { defineProject } from "vitest/config";

// The gazetteer index (200,000 places, 700,000 names) is built once per test file and takes seconds.
export default defineProject({
  test: {
    name: "geocoding",
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
