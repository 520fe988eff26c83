import { runService } from "@apiplat/service-kit";
import { buildApp } from "./app.js";
import { settingsFromConfig } from "./settings.js";

await runService("currency-exchange", (platform) => buildApp({ ...platform }, settingsFromConfig(platform.config)));
