import { runService } from "@apiplat/service-kit";
import { buildApp, depsFromEnvironment } from "./app.js";

await runService("public-holidays", (platform) => buildApp(depsFromEnvironment(platform)));
