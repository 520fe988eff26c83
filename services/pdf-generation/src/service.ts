import { defineService } from "@apiplat/service-kit";
import { createOutboundClient } from "@apiplat/outbound-guard";
import { startBrowserProxy, throttledRefusalLog, type BrowserProxy } from "./browser/browser-network.js";
import { BrowserPool } from "./browser/browser-pool.js";
import { readHighlightTheme } from "./browser/highlight-theme.js";
import type { GuardedFetch, UrlCheck } from "./browser/network-policy.js";
import { PdfRenderer } from "./browser/renderer.js";
import { RenderError } from "./domain/errors.js";
import { LIMITS } from "./domain/limits.js";
import { MergePool } from "./merging/merge-pool.js";
import { mergeRoutes } from "./routes/merge.js";
import { renderRoutes } from "./routes/render.js";
import { settingsFromEnv, type PdfSettings } from "./settings.js";

/** One page, image, font or script the renderer fetches; a larger one fails to load (the page renders without it). */
const SUBRESOURCE_MAX_BYTES = 25 * 1024 * 1024;

/** JSON bodies of the render endpoints: the largest html field, allowing for JSON escaping of markup. */
const RENDER_BODY_LIMIT = 2 * LIMITS.htmlMaxChars + 1024 * 1024;

export default defineService<PdfSettings>({
  name: "pdf-generation",
  description:
    "Renders HTML, Markdown or a web page to PDF with real Chromium (page size, margins, headers and footers with page numbers, " +
    "watermark, tagged accessible PDF) and merges PDFs.",
  settings: settingsFromEnv,
  bodyLimit: RENDER_BODY_LIMIT,
  examples: new URL("../openapi-examples.json", import.meta.url),
  async build({ app, platform, settings, background, readiness }) {
    const outbound = createOutboundClient({ allowCidrs: platform.config.outboundAllowCidrs });
    const checkUrl: UrlCheck = (url) => outbound.check(url);
    const fetchThroughGuard: GuardedFetch = (url, init) => outbound.fetch(url, { ...init, maxRedirects: 0, maxBytes: SUBRESOURCE_MAX_BYTES });

    // The browsers' only way out: every connection Chromium opens itself goes through the guard (browser-network.ts).
    let browserProxy: BrowserProxy | undefined;
    let pool: BrowserPool | undefined;
    const runningPool = () => {
      if (!pool) throw new RenderError("browser_unavailable", "The browsers have not started yet.");
      return pool;
    };
    background({ name: "outbound client", start() {}, stop: () => outbound.close() });
    background({
      name: "browser proxy",
      async start() {
        browserProxy = await startBrowserProxy({
          allowCidrs: platform.config.outboundAllowCidrs,
          namespace: settings.networkNamespace,
          onRefused: throttledRefusalLog((fields, message) => app.log.warn(fields, message)),
        });
        app.log.info({ networkNamespace: browserProxy.isolated }, "browsers reach the network only through the guarded proxy");
      },
      stop: () => browserProxy?.close(),
    });
    background({
      name: "browser pool",
      start() {
        const { proxy } = browserProxy!;
        pool = new BrowserPool({ ...settings, proxyServer: proxy.url, proxySocketPath: proxy.socketPath });
        pool.setLogger((message, fields) => app.log.warn(fields ?? {}, message));
        // Warm browsers make the first requests fast; a failure here only delays them (the pool retries per job).
        pool.start().catch((error: unknown) => app.log.error({ err: error }, "browser pool did not start"));
      },
      stop: () => pool?.close(),
    });
    readiness("browser", async () => (pool ? pool.healthy() : false));

    const renderer = new PdfRenderer({ run: (job, timeoutMs, options) => runningPool().run(job, timeoutMs, options) }, checkUrl, fetchThroughGuard);
    await app.register(renderRoutes, { renderer, renderBudgetMs: settings.renderBudgetMs, highlightTheme: await readHighlightTheme() });
    const merger = new MergePool({
      threads: settings.mergeThreads,
      maxQueue: settings.mergeMaxQueue,
      timeoutMs: settings.mergeTimeoutMs,
      heapMb: settings.mergeHeapMb,
    });
    background({ name: "merge threads", start() {}, stop: () => merger.close() });
    await app.register(mergeRoutes, { merger });
  },
});
