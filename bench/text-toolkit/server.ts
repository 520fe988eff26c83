/** The text-toolkit bench server (see bench/lib/bench-server.ts). */
import { serveForBenchmark } from "../lib/bench-server.js";
import { buildApp } from "../../services/text-toolkit/src/app.js";
import { textRoutes } from "../../services/text-toolkit/src/routes/text.js";

await serveForBenchmark(process.argv[2] ?? "platform", {
  service: "text-toolkit",
  buildPlatformApp: buildApp,
  registerBareRoutes: (app) => app.register(textRoutes),
  bodyLimit: 640 * 1024,
});
