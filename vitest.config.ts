import { defineConfig } from "vitest/config";

/** Suites that start every deployed service, or real browsers, in one file: they need minutes, not seconds. */
const LONG = ["packages/fuzz", "packages/readme-examples", "services/pdf-generation"];

export default defineConfig({
  test: {
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, which runs the files one after
    // another. Most files wait on PostgreSQL, Chromium or timers, so two side by side fit two cores.
    maxWorkers: 2,
    // Each worker keeps its imported modules from one test file to the next (Fastify, pg, the platform packages and
    // the services): every file builds its own platform and services, and no test changes process.env or mocks a
    // module, so nothing else carries over. Two projects, not one a folder: a worker is kept only within its project,
    // and forty projects imported and transformed the same packages forty times (9.5 minutes against 16 for the suite).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: "suite",
          include: ["{packages,services}/*/test/**/*.test.ts", "infra/test/**/*.test.ts"],
          exclude: LONG.map((dir) => `${dir}/**`),
        },
      },
      { extends: true, test: { name: "long", include: LONG.map((dir) => `${dir}/test/**/*.test.ts`), testTimeout: 300_000, hookTimeout: 180_000 } },
    ],
  },
});
