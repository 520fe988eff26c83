import { runService } from "@apiplat/service-kit";
import { relaySettingsFromEnv } from "./settings.js";
import { buildApp } from "./app.js";

await runService("webhook-relay", (platform) => buildApp({ ...platform, relay: relaySettingsFromEnv(platform.config.env) }));
