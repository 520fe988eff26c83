import { defineConfig } from "vitest/config";

// One test builds every deployed service (a real browser pool, OCR workers) and runs every README's examples in order.
export default defineConfig({
  test: { name: "readme-examples", root: import.meta.dirname, include: ["test/**/*.test.ts"], testTimeout: 300_000, hookTimeout: 180_000 },
});
