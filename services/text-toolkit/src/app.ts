import { createServiceApp, type PlatformDeps, type ServiceApp } from "@apiplat/service-kit";
import { textRoutes } from "./routes/text.js";

// Room for 100 KB of text after JSON escaping; the text itself is bounded at 100 KB in the routes.
const BODY_LIMIT = 640 * 1024;

export async function buildApp(deps: PlatformDeps): Promise<ServiceApp> {
  const app = await createServiceApp({
    service: "text-toolkit",
    deps,
    bodyLimit: BODY_LIMIT,
    description: "Hashing, UUIDs, case conversion, slugs, text statistics, lorem ipsum and passwords.",
  });
  await app.register(textRoutes);
  return app;
}

export const service = { name: "text-toolkit" as const, build: buildApp };
