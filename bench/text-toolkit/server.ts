/** The text-toolkit bench server (see bench/lib/bench-server.ts). */
import { serveForBenchmark } from "../lib/bench-server.js";
import { buildService } from "@apiplat/service-kit";
import textToolkit, { routes as textRoutes } from "@apiplat/text-toolkit";

await serveForBenchmark(process.argv[2] ?? "platform", {
  service: "text-toolkit",
  buildPlatformApp: (deps) => buildService(textToolkit, deps),
  registerBareRoutes: (app) => app.register(textRoutes),
  bodyLimit: 640 * 1024,
});
