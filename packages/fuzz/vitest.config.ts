import { defineConfig } from "vitest/config";

// Each service's operations are fuzzed in one test; a service with a real browser or OCR engine needs the time.
export default defineConfig({
  test: { name: "fuzz", root: import.meta.dirname, include: ["test/**/*.test.ts"], testTimeout: 240_000, hookTimeout: 120_000 },
});
