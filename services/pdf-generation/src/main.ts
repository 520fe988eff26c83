import { runService } from "@apiplat/service-kit";
import { buildApp } from "./app.js";
import { settingsFromEnv } from "./settings.js";

await runService("pdf-generation", (platform) => buildApp({ ...platform, settings: settingsFromEnv(platform.config.env) }));
