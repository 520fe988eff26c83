import { defineProject } from "vitest/config";

// Real Chromium renders: a test may wait on several renders, a file's setup on a browser launch and migrations.
export default defineProject({
  test: {
    name: "pdf-generation",
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
