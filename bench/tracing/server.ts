/**
 * The tracing bench server: text-toolkit in one of three modes.
 *   bare  the /hash route on bare Fastify (see bench/lib/bench-server.ts)
 *   off   the whole platform as it runs without OTEL_EXPORTER_OTLP_ENDPOINT: the SDK never loaded
 *   on    the whole platform with tracing on, every request sampled, spans exported over OTLP/HTTP to
 *         BENCH_OTLP_ENDPOINT in batches (the SDK's defaults: 512 spans or 5 s)
 */
import { startTracing } from "@apiplat/tracing";
import { buildService } from "@apiplat/service-kit";
import textToolkit, { routes as textRoutes } from "@apiplat/text-toolkit";
import { serveForBenchmark } from "../lib/bench-server.js";

const mode = process.argv[2] ?? "off";
if (!["bare", "off", "on"].includes(mode)) throw new Error(`unknown mode ${mode}: bare, off or on`);
if (mode === "on") {
  const endpoint = process.env.BENCH_OTLP_ENDPOINT;
  if (!endpoint) throw new Error("mode on needs BENCH_OTLP_ENDPOINT (bench/tracing/overhead.ts sets it)");
  // Before the platform opens its database and cache, as runService does.
  await startTracing("text-toolkit", { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_SAMPLER: "always_on" });
}
await serveForBenchmark(mode === "bare" ? "bare" : "platform", {
  service: "text-toolkit",
  buildPlatformApp: (deps) => buildService(textToolkit, deps),
  registerBareRoutes: (app) => app.register(textRoutes),
  bodyLimit: 640 * 1024,
});
