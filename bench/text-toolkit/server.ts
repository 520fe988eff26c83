/** The text-toolkit bench server (see bench/lib/bench-server.ts). */
import { serveForBenchmark } from "../lib/bench-server.js";
import { buildService } from "@apiplat/service-kit";
import textToolkit from "@apiplat/text-toolkit";
import { textRoutes } from "../../services/text-toolkit/src/routes/text.js";

await serveForBenchmark(process.argv[2] ?? "platform", {
  service: "text-toolkit",
  buildPlatformApp: (deps) => buildService(textToolkit, deps),
  registerBareRoutes: (app) => app.register(textRoutes),
  bodyLimit: 640 * 1024,
});
