/** Starting one headless Chromium for the pool, and the small waits around its pages. */
import puppeteer, { type Browser, type BrowserContext, type Page } from "puppeteer-core";
import { RenderError } from "../domain/errors.js";
import { IGNORED_DEFAULT_ARGS, namespacedLaunch, networkBoundaryArgs, removeProfileDir } from "./browser-network.js";

/** Flags for a headless Chromium running as root in a container, with nothing phoning home. */
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--no-first-run",
  "--no-default-browser-check",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--disable-extensions",
  "--disable-default-apps",
  "--disable-domain-reliability",
  "--metrics-recording-only",
  "--mute-audio",
  "--font-render-hinting=none",
];

interface ChromiumLaunch {
  executablePath: string;
  /** The guarded forward proxy, the browser's only way out (browser-network.ts). */
  proxyServer: string;
  /** The same proxy's Unix socket: the browser then runs in a network namespace of its own. */
  proxySocketPath?: string;
  launchTimeoutMs: number;
  profileDir: string;
  log?: (message: string, fields?: Record<string, unknown>) => void;
}

export async function launchChromium({ executablePath, proxyServer, proxySocketPath, launchTimeoutMs, profileDir, log }: ChromiumLaunch): Promise<Browser> {
  const browser = await puppeteer.launch({
    ...(proxySocketPath ? namespacedLaunch(executablePath, proxyServer, proxySocketPath, profileDir) : { executablePath }),
    // DevTools over a pipe: no debugging port on loopback, and it reaches into a network namespace.
    pipe: true,
    headless: true,
    args: [...CHROMIUM_ARGS, ...networkBoundaryArgs(proxyServer)],
    ignoreDefaultArgs: IGNORED_DEFAULT_ARGS,
    userDataDir: profileDir,
    timeout: launchTimeoutMs,
    protocolTimeout: 120_000,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  ignorePipeErrors(browser, log);
  return browser;
}

/**
 * A Chromium killed with data in flight can fail a read on one of its five pipes (ECONNRESET). An 'error' event
 * nobody handles ends the whole service, and puppeteer reads Chromium's stdout and stderr through readline, which
 * re-emits the stream's error on an interface nobody listens to. So those two streams lose puppeteer's error
 * listeners (readline still sees them close), and every pipe's error is only logged: the browser's end is handled
 * through 'disconnected'.
 */
function ignorePipeErrors(browser: Browser, log: ChromiumLaunch["log"]): void {
  const stdio = browser.process()?.stdio ?? [];
  stdio.forEach((stream, fd) => {
    if (!stream) return;
    if (fd === 1 || fd === 2) stream.removeAllListeners("error");
    stream.on("error", (error: Error) => log?.("a browser pipe failed", { fd, error: error.message }));
  });
}

/** Chromium writes into its profile until it exits; the directory goes once the process has. */
export function removeProfileOnExit(browser: Browser, dir: string): Promise<void> {
  const child = browser.process();
  const exited =
    child && child.exitCode === null && child.signalCode === null
      ? new Promise<void>((resolve) => child.once("exit", () => resolve()))
      : new Promise<void>((resolve) => browser.once("disconnected", () => resolve()));
  return exited.then(() => removeProfileDir(dir));
}

export interface FreshPage {
  context: BrowserContext;
  page: Page;
}

/** A page in a browser context of its own (no cookies, cache or storage shared with other jobs). */
export async function openPage(browser: Browser): Promise<FreshPage> {
  const context = await browser.createBrowserContext();
  try {
    return { context, page: await context.newPage() };
  } catch (error) {
    await context.close().catch(() => undefined);
    throw error;
  }
}

export async function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(onTimeout()), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

const TAB_CRASHED = "The document crashed the browser tab while rendering; it is probably too large or too complex.";

/** `work` on `page`, refused as renderer_crashed as soon as the tab crashes (its promise would never settle). */
export async function unlessTabCrashes<T>(page: Page, work: () => Promise<T>): Promise<T> {
  let onCrash: (() => void) | undefined;
  const crashed = new Promise<never>((_, reject) => {
    onCrash = () => reject(new RenderError("renderer_crashed", TAB_CRASHED));
    page.once("error", onCrash);
  });
  try {
    return await Promise.race([work(), crashed]);
  } finally {
    page.off("error", onCrash!);
  }
}

/** A protocol error because the browser went away is the browser's fault, not the document's. */
export function explainFailure(error: unknown, browser: Browser): unknown {
  if (error instanceof RenderError) return error;
  if (!browser.connected) return new RenderError("browser_unavailable", "The browser stopped while rendering; it has been restarted, please retry.");
  if (error instanceof Error && /page crashed|Target crashed/i.test(error.message)) return new RenderError("renderer_crashed", TAB_CRASHED);
  return error;
}
