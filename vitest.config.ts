import { existsSync, readdirSync } from "node:fs";
import { defineConfig } from "vitest/config";

/** Every package and service with a test/ folder is a project named after its folder (infra too). */
const projectDirs = [...["packages", "services"].flatMap((group) => readdirSync(group).map((name) => `${group}/${name}`)), "infra"].filter((dir) =>
  existsSync(`${dir}/test`),
);

export default defineConfig({
  test: {
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, which runs the files one after
    // another. Most files wait on PostgreSQL, Chromium or timers, so two side by side fit two cores.
    maxWorkers: 2,
    // Each worker keeps its imported modules from one test file to the next (Fastify, pg, the platform packages):
    // importing them again for each of 150 files cost more than a minute. Every file builds its own platform and
    // services, and no test changes process.env or mocks a module, so nothing else carries over.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // A folder with its own vitest.config.ts (longer timeouts for real browsers, say) uses it.
    projects: projectDirs.map((dir) =>
      existsSync(`${dir}/vitest.config.ts`)
        ? `${dir}/vitest.config.ts`
        : { extends: true, test: { name: dir.split("/").at(-1), root: dir, include: ["test/**/*.test.ts"] } },
    ),
  },
});
