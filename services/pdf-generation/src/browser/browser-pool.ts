import type { Browser, BrowserContext, Page } from "puppeteer-core";
import { RenderError } from "../domain/errors.js";
import { PageAdmission } from "./admission.js";
import { closePopups, createProfileDir, removeProfileDir } from "./browser-network.js";
import { explainFailure, launchChromium, openPage, removeProfileOnExit, unlessTabCrashes, withTimeout, type FreshPage } from "./chromium.js";

export interface BrowserPoolOptions {
  executablePath: string;
  /** Chromium processes kept running; a hung or crashed one only takes its own jobs down. */
  browsers: number;
  /** Pages rendering at once in each browser. */
  pagesPerBrowser: number;
  /** Jobs waiting for a page beyond this are refused at once (busy) instead of piling up. */
  maxQueue: number;
  /** A job that waited this long for a page is refused (busy). */
  queueTimeoutMs: number;
  /** A browser is restarted after serving this many jobs, to return the memory Chromium keeps. */
  recycleAfterJobs: number;
  launchTimeoutMs: number;
  /**
   * The guarded forward proxy ("http://127.0.0.1:<port>") that is the browsers' only way out; see
   * browser-network.ts.
   */
  proxyServer: string;
  /**
   * The same proxy's Unix socket: when given, each browser runs in a network namespace of its own whose only route
   * leads there (check `networkNamespaceWorks()` first).
   */
  proxySocketPath?: string;
  log?: (message: string, fields?: Record<string, unknown>) => void;
}

const HARD_TIMEOUT_GRACE_MS = 1_500;
/** A healthy browser closes a context in milliseconds; one that takes this long is hung. */
const CONTEXT_CLOSE_TIMEOUT_MS = 3_000;

interface Lease extends FreshPage {
  /** A page of the shared context, to be parked for the next script-free job. */
  reusable: boolean;
}

interface Slot {
  index: number;
  browser: Browser | null;
  launching: Promise<Browser> | null;
  active: number;
  jobsServed: number;
  /** A browser being shut down: it stays `connected` until Chromium has closed, and no new job may go to it. */
  retiring: Browser | null;
  /** A context and page opened ahead of time: starting a renderer process is most of a small job's latency. */
  spare: { browser: Browser; ready: Promise<FreshPage | null> } | null;
  /** The context whose pages script-free jobs share, with its idle pages. */
  shared: { browser: Browser; context: Promise<BrowserContext>; idle: Page[] } | null;
}

export interface PoolStats {
  browsers_running: number;
  pages_active: number;
  queue_length: number;
  jobs_completed: number;
  browsers_restarted: number;
}

type PageJob<T> = (page: Page, deadline: number) => Promise<T>;

export class BrowserPool {
  private readonly slots: Slot[];
  private readonly admission: PageAdmission;
  private closed = false;
  private jobsCompleted = 0;
  private browsersRestarted = 0;
  private readonly profileRemovals = new Set<Promise<void>>();

  constructor(private options: BrowserPoolOptions) {
    this.slots = Array.from({ length: options.browsers }, (_, index) => ({
      index,
      browser: null,
      launching: null,
      active: 0,
      jobsServed: 0,
      retiring: null,
      spare: null,
      shared: null,
    }));
    this.admission = new PageAdmission(options.browsers * options.pagesPerBrowser, options.maxQueue, options.queueTimeoutMs);
  }

  setLogger(log: BrowserPoolOptions["log"]): void {
    this.options = { ...this.options, log };
  }

  /** Starts every browser, with one idle shared page, now so the first requests are warm. */
  async start(): Promise<void> {
    await Promise.all(this.slots.map((slot) => this.warm(slot)));
  }

  /** Makes sure the slot has a running browser with an idle shared page. */
  private async warm(slot: Slot): Promise<void> {
    const browser = await this.browserOf(slot);
    const lease = await this.takeIdlePage(slot, browser);
    slot.shared?.idle.push(lease.page);
  }

  /** A replacement started before any job asks for it, so that no job waits for a launch while others are served. */
  private warmInBackground(slot: Slot): void {
    if (this.closed) return;
    this.warm(slot).catch((error: unknown) => this.options.log?.("replacement browser failed to start", { slot: slot.index, error: String(error) }));
  }

  /** Running, and not being shut down. */
  private isReady(slot: Slot): boolean {
    return slot.browser?.connected === true && slot.browser !== slot.retiring;
  }

  /**
   * Runs a job on a page, within the timeout. By default the page is fresh, in its own browser context (no
   * cookies, cache or storage shared with other jobs), and the context is closed whatever happens.
   * `reusePage` is for jobs that run no scripts (static HTML and Markdown): they take an idle page of a shared
   * context, which saves starting a renderer process (most of a small job's CPU); the page goes back to the idle
   * set only when the job succeeded, blanked first.
   */
  async run<T>(job: PageJob<T>, timeoutMs: number, options: { reusePage?: boolean } = {}): Promise<T> {
    if (this.closed) throw new RenderError("browser_unavailable", "The service is shutting down.");
    await this.admission.acquire();
    const slot = this.leastBusySlot();
    slot.active += 1;
    try {
      return await this.runOnSlot(slot, job, timeoutMs, options.reusePage ?? false);
    } finally {
      slot.active -= 1;
      slot.jobsServed += 1;
      this.jobsCompleted += 1;
      this.recycleIfDue(slot);
      this.admission.release();
    }
  }

  /** True when at least one browser answers. */
  async healthy(): Promise<boolean> {
    if (this.closed) return false;
    for (const slot of this.slots) {
      try {
        const browser = await this.browserOf(slot);
        await withTimeout(browser.version(), 5_000, () => new Error("browser did not answer"));
        return true;
      } catch {
        continue;
      }
    }
    return false;
  }

  stats(): PoolStats {
    return {
      browsers_running: this.slots.filter((s) => s.browser?.connected).length,
      pages_active: this.slots.reduce((sum, s) => sum + s.active, 0),
      queue_length: this.admission.waiting,
      jobs_completed: this.jobsCompleted,
      browsers_restarted: this.browsersRestarted,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.admission.refuseWaiting(new RenderError("browser_unavailable", "The service is shutting down."));
    await Promise.all(this.slots.map((slot) => this.shutDownBrowser(slot)));
    await withTimeout(Promise.all(this.profileRemovals), 5_000, () => new Error("profile removal timed out")).catch(() => undefined);
  }

  private async runOnSlot<T>(slot: Slot, job: PageJob<T>, timeoutMs: number, reusePage: boolean): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    const browser = await this.browserOf(slot);
    let lease: Lease | null = null;
    let abandoned = false;
    let succeeded = false;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      // The job sees the deadline and times its own steps out precisely; this is the backstop for a step that hangs.
      timer = setTimeout(() => reject(new RenderError("timeout", `Rendering did not finish within ${timeoutMs} ms.`)), timeoutMs + HARD_TIMEOUT_GRACE_MS);
    });
    try {
      const work = (async () => {
        const taken = reusePage ? await this.takeIdlePage(slot, browser) : await this.takeFreshPage(slot, browser);
        if (abandoned) {
          await discard(taken);
          throw new RenderError("timeout", `Rendering did not finish within ${timeoutMs} ms.`);
        }
        lease = taken;
        return await unlessTabCrashes(taken.page, () => job(taken.page, deadline));
      })();
      work.catch(() => undefined);
      const result = await Promise.race([work, timedOut]);
      succeeded = true;
      return result;
    } catch (error) {
      throw explainFailure(error, browser);
    } finally {
      abandoned = true;
      clearTimeout(timer);
      if (lease === null && browser.connected && Date.now() >= deadline) {
        // Not even a page could be opened in the whole time budget: the browser is hung.
        this.options.log?.("browser did not open a page in time; replacing it", { slot: slot.index });
        if (slot.browser === browser) await this.shutDownBrowser(slot, true);
      }
      if (lease !== null) await this.endLease(slot, browser, lease, succeeded);
    }
  }

  /** An idle page of this browser's shared context, or a new one in it. */
  private async takeIdlePage(slot: Slot, browser: Browser): Promise<Lease> {
    if (slot.shared?.browser !== browser) slot.shared = { browser, context: browser.createBrowserContext(), idle: [] };
    const shared = slot.shared;
    const context = await shared.context.catch((error: unknown) => {
      if (slot.shared === shared) slot.shared = null;
      throw error;
    });
    const idle = shared.idle.pop();
    return { context, page: idle ?? (await context.newPage()), reusable: true };
  }

  /** A reusable page that did its job is blanked and parked; anything else is closed, and a hang replaces the browser. */
  private async endLease(slot: Slot, browser: Browser, lease: Lease, succeeded: boolean): Promise<void> {
    if (!browser.connected) return;
    try {
      if (lease.reusable && succeeded && slot.shared?.browser === browser && !this.closed) {
        await withTimeout(lease.page.goto("about:blank"), CONTEXT_CLOSE_TIMEOUT_MS, () => new Error("blanking the page timed out"));
        slot.shared.idle.push(lease.page);
        return;
      }
      await withTimeout(discard(lease), CONTEXT_CLOSE_TIMEOUT_MS, () => new Error("closing the page timed out"));
    } catch (error) {
      this.options.log?.("browser hung while closing a page; replacing it", { slot: slot.index, error: String(error) });
      if (slot.browser === browser) await this.shutDownBrowser(slot, true);
    }
  }

  /** The spare page if one is ready in this browser, else a new one; a new spare is then prepared in the background. */
  private async takeFreshPage(slot: Slot, browser: Browser): Promise<Lease> {
    const taken = slot.spare;
    slot.spare = null;
    const spare = taken?.browser === browser ? await taken.ready : null;
    const fresh = spare ?? (await openPage(browser));
    if (!this.closed && browser.connected) {
      const ready = openPage(browser).catch(() => null);
      slot.spare = { browser, ready };
    }
    return { ...fresh, reusable: false };
  }

  private async browserOf(slot: Slot): Promise<Browser> {
    if (this.closed) throw new RenderError("browser_unavailable", "The service is shutting down.");
    if (this.isReady(slot)) return slot.browser!;
    if (!slot.launching) {
      slot.launching = this.launch(slot).finally(() => {
        slot.launching = null;
      });
    }
    return slot.launching;
  }

  private async launch(slot: Slot): Promise<Browser> {
    let profileDir: string | null = null;
    try {
      profileDir = await createProfileDir();
      const { executablePath, proxyServer, proxySocketPath, launchTimeoutMs, log } = this.options;
      const browser = await launchChromium({ executablePath, proxyServer, proxySocketPath, launchTimeoutMs, profileDir, log });
      this.trackProfileRemoval(removeProfileOnExit(browser, profileDir));
      closePopups(browser, (url) => this.options.log?.("closed a pop-up the document opened", { slot: slot.index, url: url.slice(0, 300) }));
      if (slot.browser) this.browsersRestarted += 1;
      slot.browser = browser;
      slot.jobsServed = 0;
      browser.once("disconnected", () => {
        if (slot.browser !== browser || browser === slot.retiring) return;
        this.options.log?.("browser disconnected; replacing it", { slot: slot.index });
        this.warmInBackground(slot);
      });
      return browser;
    } catch (error) {
      if (profileDir) await removeProfileDir(profileDir);
      this.options.log?.("browser failed to start", { slot: slot.index, error: String(error) });
      throw new RenderError("browser_unavailable", "The PDF engine could not be started; please retry shortly.");
    }
  }

  private trackProfileRemoval(removal: Promise<void>): void {
    this.profileRemovals.add(removal);
    void removal.finally(() => this.profileRemovals.delete(removal));
  }

  private async shutDownBrowser(slot: Slot, kill = false): Promise<void> {
    const browser = slot.browser;
    if (!browser) return;
    slot.retiring = browser;
    try {
      if (kill) browser.process()?.kill("SIGKILL");
      await withTimeout(browser.close(), 5_000, () => new Error("browser close timed out"));
    } catch {
      browser.process()?.kill("SIGKILL");
    }
    // The reference stays, so that the next launch counts as a replacement.
    this.warmInBackground(slot);
  }

  private recycleIfDue(slot: Slot): void {
    if (slot.active === 0 && slot.jobsServed >= this.options.recycleAfterJobs && this.isReady(slot)) void this.shutDownBrowser(slot);
  }

  /** The least busy slot with a free page, running browsers first: a job waits for a launch only when they are full. */
  private leastBusySlot(): Slot {
    const preferred = [...this.slots].sort((a, b) => Number(this.isReady(b)) - Number(this.isReady(a)) || a.active - b.active);
    return preferred.find((s) => s.active < this.options.pagesPerBrowser) ?? preferred[0];
  }
}

/** A fresh lease goes with its context; a shared page goes alone. */
async function discard(lease: Lease): Promise<void> {
  if (lease.reusable) await lease.page.close();
  else await lease.context.close();
}
