import { createServiceApp, type PlatformDeps } from "@apiplat/service-kit";
import { createOutboundClient } from "@apiplat/outbound-guard";
import { startBrowserProxy, throttledRefusalLog } from "./domain/browser-network.js";
import { BrowserPool } from "./domain/browser-pool.js";
import { LIMITS } from "./domain/limits.js";
import type { GuardedFetch, UrlCheck } from "./domain/network-policy.js";
import { PdfRenderer } from "./domain/renderer.js";
import { mergeRoutes } from "./routes/merge.js";
import { renderRoutes } from "./routes/render.js";
import { settingsFromEnv, type PdfSettings } from "./settings.js";

export interface PdfGenerationDeps extends PlatformDeps {
  settings: PdfSettings;
}

/** One page, image, font or script the renderer fetches; a larger one fails to load (the page renders without it). */
const SUBRESOURCE_MAX_BYTES = 25 * 1024 * 1024;

/** JSON bodies of the render endpoints: the largest html field, allowing for JSON escaping of markup. */
const RENDER_BODY_LIMIT = 2 * LIMITS.htmlMaxChars + 1024 * 1024;

export async function buildApp(deps: PdfGenerationDeps) {
  const outbound = createOutboundClient({ allowCidrs: deps.config.outboundAllowCidrs });
  const checkUrl: UrlCheck = (url) => outbound.check(url);
  const fetchThroughGuard: GuardedFetch = (url, init) =>
    outbound.fetch(url, { ...init, maxRedirects: 0, maxBytes: SUBRESOURCE_MAX_BYTES });
  const app = await createServiceApp({
    service: "pdf-generation",
    deps,
    bodyLimit: RENDER_BODY_LIMIT,
    description:
      "Renders HTML, Markdown or a web page to PDF with real Chromium (page size, margins, headers and footers with page numbers, " +
      "watermark, tagged accessible PDF) and merges PDFs.",
    readiness: { browser: () => pool.healthy() },
  });
  // The browsers' only way out: every connection Chromium opens itself goes through the guard (browser-network.ts).
  const browserProxy = await startBrowserProxy({
    allowCidrs: deps.config.outboundAllowCidrs,
    namespace: deps.settings.networkNamespace,
    onRefused: throttledRefusalLog((fields, message) => app.log.warn(fields, message)),
  });
  app.log.info({ networkNamespace: browserProxy.isolated }, "browsers reach the network only through the guarded proxy");
  const { proxy } = browserProxy;
  const pool = new BrowserPool({ ...deps.settings, proxyServer: proxy.url, proxySocketPath: proxy.socketPath });
  pool.setLogger((message, fields) => app.log.warn(fields ?? {}, message));
  app.addHook("onReady", async () => {
    // Warm browsers make the first requests fast; a failure here only delays them (the pool retries per job).
    await pool.start().catch((error: unknown) => app.log.error({ err: error }, "browser pool did not start"));
  });
  app.addHook("onClose", async () => {
    await pool.close();
    await browserProxy.close();
    await outbound.close();
  });
  const renderer = new PdfRenderer(pool, checkUrl, fetchThroughGuard);
  await app.register(renderRoutes, { renderer, renderBudgetMs: deps.settings.renderBudgetMs });
  await app.register(mergeRoutes);
  return app;
}

/** The entry scripts/start-all.ts uses to start every service in one process. */
export const service = {
  name: "pdf-generation" as const,
  build: (platform: PlatformDeps) => buildApp({ ...platform, settings: settingsFromEnv(platform.config.env) }),
};
