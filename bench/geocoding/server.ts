/**
 * The geocoding service on the real platform (PostgreSQL + Redis through createTestPlatform, gateway
 * auth and metering on), listening on a free port; prints {"port","headers"} of a MEGA subscriber.
 * Per-second limits are off (RATE_LIMITS=off) so that one key can drive thousands of requests per second.
 * Started by http.ts; stops and drops its schema on SIGTERM.
 */
import { createTestPlatform } from "@apiplat/testing";
import { buildApp, loadGeocodingIndex } from "../../services/geocoding/src/app.js";

const platform = await createTestPlatform({ env: { RATE_LIMITS: "off", METERING_FLUSH_MS: "2000", LOG_LEVEL: "silent" } });
const index = loadGeocodingIndex();
const app = await buildApp({ ...platform.deps, index });
const { headers } = await platform.subscribe("geocoding", "MEGA");
await app.listen({ host: "127.0.0.1", port: 0 });
const address = app.server.address();
const port = typeof address === "object" && address ? address.port : 0;
console.log(JSON.stringify({ port, headers, build_ms: index.buildMs }));

process.once("SIGTERM", async () => {
  await app.close();
  await platform.close();
  process.exit(0);
});
