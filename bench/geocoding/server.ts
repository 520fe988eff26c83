/**
 * The geocoding service on the real platform (PostgreSQL + Redis through createTestPlatform, gateway
 * auth and metering on), listening on a free port; prints {"port","headers"} of a MEGA subscriber.
 * Per-second limits are off (RATE_LIMITS=off) so that one key can drive thousands of requests per second.
 * Started by http.ts; stops and drops its schema on SIGTERM.
 */
import { startService } from "@apiplat/testing";
import geocoding, { loadGeocodingIndex } from "@apiplat/geocoding";

const index = loadGeocodingIndex();
const service = await startService(geocoding, {
  env: { RATE_LIMITS: "off", METERING_FLUSH_MS: "2000", LOG_LEVEL: "silent" },
  inject: { index },
  listen: true,
});
const { headers } = await service.subscribe("MEGA");
console.log(JSON.stringify({ port: service.port, headers, build_ms: index.buildMs }));

process.once("SIGTERM", async () => {
  await service.close();
  process.exit(0);
});
