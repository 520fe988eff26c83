/**
 * GET /lookup?tz=Europe/Berlin: the full platform stack against the same handler on bare Fastify.
 *   bash scripts/pnpm.sh exec tsx bench/time-zone/lookup.ts [seconds] [connections]
 */
import { comparePlatformToBare } from "../lib/compare.js";

await comparePlatformToBare({
  serverScript: "bench/time-zone/server.ts",
  host: "time-zone.api.local",
  method: "GET",
  path: "/lookup?tz=Europe/Berlin",
  seconds: Number(process.argv[2] ?? 10),
  connections: Number(process.argv[3] ?? 50),
});
