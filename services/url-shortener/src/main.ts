import { runService } from "@apiplat/service-kit";
import { buildApp, settingsFromEnv } from "./app.js";

await runService("url-shortener", async (platform) => {
  const app = await buildApp({ ...platform, settings: settingsFromEnv(platform.config) });
  // SIGHUP re-reads the blocklist files at once (they are also checked on an interval).
  process.on("SIGHUP", () => void app.reloadBlocklist?.());
  return app;
});
