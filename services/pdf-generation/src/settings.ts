import { integerSetting, type Env } from "@apiplat/config";
import type { BrowserPoolOptions } from "./browser/browser-pool.js";
import type { Plan } from "./domain/limits.js";

/** The service's own settings, read from the environment once by the manifest (tests override some). */
export interface PdfSettings extends Omit<BrowserPoolOptions, "log" | "proxyServer" | "proxySocketPath"> {
  /** The longest one job may hold a browser page, per plan; `timeout_ms` can lower it, never raise it. */
  renderBudgetMs: Record<Plan, number>;
  /** "auto": browsers run in network namespaces of their own when the machine allows it; "off": never. */
  networkNamespace: "auto" | "off";
  /** Worker threads that merge PDFs (pdf-lib), so that a long merge never holds the event loop. */
  mergeThreads: number;
  /** Merges that may wait for a merge thread before one more is refused (503). */
  mergeMaxQueue: number;
  /** Time one merge may take once it has a thread. */
  mergeTimeoutMs: number;
  /** V8 heap of a merge thread, in MiB. */
  mergeHeapMb: number;
}

/**
 * Debian's Chromium binary itself, not its /usr/bin/chromium wrapper: the wrapper sources /etc/chromium.d, which adds
 * `--enable-remote-extensions` and Google API keys, and the browser then polls clients2.google.com and
 * update.googleapis.com for extension updates at every start (refused by the proxy, but attempts all the same).
 */
export const DEFAULT_SETTINGS: PdfSettings = {
  executablePath: "/usr/lib/chromium/chromium",
  browsers: 2,
  pagesPerBrowser: 2,
  maxQueue: 32,
  queueTimeoutMs: 30_000,
  recycleAfterJobs: 500,
  launchTimeoutMs: 30_000,
  renderBudgetMs: { BASIC: 10_000, PRO: 20_000, ULTRA: 30_000, MEGA: 60_000 },
  networkNamespace: "auto",
  mergeThreads: 1,
  mergeMaxQueue: 8,
  mergeTimeoutMs: 60_000,
  mergeHeapMb: 2048,
};

/** Reads CHROMIUM_PATH and the PDF_* environment variables. */
export function settingsFromEnv(env: Env): PdfSettings {
  const budget = (plan: Plan) => integerSetting(env, `PDF_RENDER_BUDGET_${plan}_MS`, DEFAULT_SETTINGS.renderBudgetMs[plan], 1_000);
  return {
    executablePath: env.CHROMIUM_PATH || DEFAULT_SETTINGS.executablePath,
    browsers: integerSetting(env, "PDF_BROWSERS", DEFAULT_SETTINGS.browsers, 1),
    pagesPerBrowser: integerSetting(env, "PDF_PAGES_PER_BROWSER", DEFAULT_SETTINGS.pagesPerBrowser, 1),
    maxQueue: integerSetting(env, "PDF_MAX_QUEUE", DEFAULT_SETTINGS.maxQueue, 1),
    queueTimeoutMs: integerSetting(env, "PDF_QUEUE_TIMEOUT_MS", DEFAULT_SETTINGS.queueTimeoutMs, 1),
    recycleAfterJobs: integerSetting(env, "PDF_RECYCLE_AFTER_JOBS", DEFAULT_SETTINGS.recycleAfterJobs, 1),
    launchTimeoutMs: integerSetting(env, "PDF_LAUNCH_TIMEOUT_MS", DEFAULT_SETTINGS.launchTimeoutMs, 1),
    renderBudgetMs: { BASIC: budget("BASIC"), PRO: budget("PRO"), ULTRA: budget("ULTRA"), MEGA: budget("MEGA") },
    networkNamespace: env.PDF_NETWORK_NAMESPACE === "off" ? "off" : "auto",
    mergeThreads: integerSetting(env, "PDF_MERGE_THREADS", DEFAULT_SETTINGS.mergeThreads, 1),
    mergeMaxQueue: integerSetting(env, "PDF_MERGE_MAX_QUEUE", DEFAULT_SETTINGS.mergeMaxQueue, 0),
    mergeTimeoutMs: integerSetting(env, "PDF_MERGE_TIMEOUT_MS", DEFAULT_SETTINGS.mergeTimeoutMs, 1_000),
    mergeHeapMb: integerSetting(env, "PDF_MERGE_HEAP_MB", DEFAULT_SETTINGS.mergeHeapMb, 64),
  };
}
