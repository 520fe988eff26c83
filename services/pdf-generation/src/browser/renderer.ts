import type { Page, PDFOptions, PuppeteerLifeCycleEvent } from "puppeteer-core";
import type { BrowserPool } from "./browser-pool.js";
import { RenderError } from "../domain/errors.js";
import { buildTemplate } from "../domain/header-footer.js";
import { assertMarginsFit, type Margins, type Orientation, type PageSize } from "../domain/page-setup.js";
import { enforceNetworkPolicy, type BlockedRequest, type GuardedFetch, type PolicyHandle, type UrlCheck } from "./network-policy.js";
import { finishAccessiblePdf, inspectPdf } from "../domain/pdf-document.js";

type WaitUntil = "load" | "domcontentloaded" | "networkidle0" | "networkidle2";

export interface RenderOptions {
  pageSize: PageSize;
  orientation: Orientation;
  margins: Margins;
  headerHtml?: string;
  footerHtml?: string;
  watermark?: { text: string; opacity: number };
  css?: string;
  printBackground: boolean;
  scale: number;
  pdfUa: boolean;
  /** Overrides the document's own <title>; otherwise the document's title, else the file name, is used. */
  title?: string;
  /** Used when the document does not declare <html lang>. */
  lang: string;
  fallbackTitle: string;
  emulateMedia: "print" | "screen";
  preferCssPageSize: boolean;
  timeoutMs: number;
}

export type RenderSource =
  | { kind: "document"; html: string; javascript: boolean; allowedOrigins: readonly string[] }
  | { kind: "web"; url: string; javascript: boolean; waitUntil: WaitUntil; waitFor?: string; delayMs: number };

interface RenderResult {
  pdf: Uint8Array;
  pageCount: number;
  tagged: boolean;
  title: string;
  lang: string;
  blockedRequests: BlockedRequest[];
  renderTimeMs: number;
}

interface PageOutput {
  pdf: Uint8Array;
  title: string;
  lang: string;
  blockedRequests: BlockedRequest[];
}

/** Turns HTML or a web page into PDF bytes on a pooled browser page, then checks what came out. */
export class PdfRenderer {
  constructor(
    private readonly pool: Pick<BrowserPool, "run">,
    private readonly checkUrl: UrlCheck,
    private readonly fetch: GuardedFetch,
  ) {}

  async render(source: RenderSource, options: RenderOptions): Promise<RenderResult> {
    assertMarginsFit(options.margins, options.pageSize, options.orientation);
    const started = performance.now();
    if (source.kind === "web") await this.assertUrlAllowed(source.url);
    // Script-free documents leave nothing behind in a page, so they may share pages (much cheaper than a new one).
    const reusePage = source.kind === "document" && !source.javascript;
    const output = await this.pool.run(
      (page, deadline) => this.renderOnPage(page, deadline, source, options).catch(asTimeout(options.timeoutMs)),
      options.timeoutMs,
      { reusePage },
    );
    const finished = options.pdfUa
      ? await finishAccessiblePdf(output.pdf, { title: output.title, lang: output.lang })
      : { pdf: output.pdf, facts: await inspectPdf(output.pdf) };
    return {
      pdf: finished.pdf,
      pageCount: finished.facts.pageCount,
      tagged: finished.facts.tagged,
      title: output.title,
      lang: output.lang,
      blockedRequests: output.blockedRequests,
      renderTimeMs: Math.round(performance.now() - started),
    };
  }

  private async assertUrlAllowed(url: string): Promise<void> {
    try {
      await this.checkUrl(url);
    } catch (error) {
      throw new RenderError(
        "blocked_url",
        error instanceof Error ? error.message : "The URL is not allowed.",
        "url",
        "is refused by the outbound URL guard",
        error,
      );
    }
  }

  private async renderOnPage(page: Page, deadline: number, source: RenderSource, options: RenderOptions): Promise<PageOutput> {
    const remaining = () => Math.max(1, deadline - Date.now());
    await page.setJavaScriptEnabled(source.javascript);
    const policy = await enforceNetworkPolicy(page, {
      mode: source.kind,
      allowedOrigins: source.kind === "document" ? source.allowedOrigins : [],
      fetch: this.fetch,
      deadline,
    });
    try {
      await page.emulateMediaType(options.emulateMedia);
      if (source.kind === "document") {
        await page.setContent(source.html, { waitUntil: "load", timeout: remaining() });
      } else {
        await page.setBypassCSP(true);
        await this.navigate(page, source, remaining, policy);
      }
      const { title, lang } = await finishDocument(page, options);
      const pdf = await page.pdf({ ...pdfOptions(options), timeout: remaining() });
      return { pdf, title, lang, blockedRequests: [...policy.blocked] };
    } finally {
      policy.release();
    }
  }

  private async navigate(page: Page, source: Extract<RenderSource, { kind: "web" }>, remaining: () => number, policy: PolicyHandle): Promise<void> {
    // Checked before the page is fetched: a selector the browser cannot parse would otherwise wait out the timeout.
    if (source.waitFor) await assertValidSelector(page, source.waitFor);
    try {
      const response = await page.goto(source.url, { waitUntil: source.waitUntil as PuppeteerLifeCycleEvent, timeout: remaining() });
      if (response && response.status() >= 400) {
        throw new RenderError("navigation_failed", `The page answered HTTP ${response.status()}; only pages that load successfully are rendered.`);
      }
    } catch (error) {
      throw explainNavigationError(error, source.url, policy);
    }
    if (source.waitFor) await waitForSelector(page, source.waitFor, remaining());
    if (source.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(source.delayMs, remaining())));
  }
}

/** A browser step that ran out of time is the job's timeout, whichever step it was. */
function asTimeout(timeoutMs: number) {
  return (error: unknown): never => {
    if (error instanceof Error && error.name === "TimeoutError") throw new RenderError("timeout", `Rendering did not finish within ${timeoutMs} ms.`);
    throw error;
  };
}

function explainNavigationError(error: unknown, url: string, { blocked, failed }: PolicyHandle): unknown {
  if (error instanceof RenderError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (message.includes("ERR_BLOCKED_BY_CLIENT")) {
    const refusal = blocked.find((b) => b.url === url) ?? blocked[blocked.length - 1];
    return new RenderError(
      "blocked_url",
      `The page or one of its redirects was refused: ${refusal?.reason ?? "not allowed"}.`,
      "url",
      "is refused by the outbound URL guard",
    );
  }
  if (error instanceof Error && error.name === "TimeoutError") {
    return new RenderError("timeout", "The page did not finish loading within the timeout.");
  }
  // The document (or a redirect of it) failed in our fetch: say why, as the guard saw it.
  const fetchFailure = failed.find((f) => f.url === url) ?? (message.includes("ERR_FAILED") ? failed[0] : undefined);
  if (fetchFailure) {
    return fetchFailure.status === 504
      ? new RenderError("timeout", fetchFailure.reason)
      : new RenderError("navigation_failed", `The page could not be loaded: ${fetchFailure.reason}`);
  }
  const netError = /net::[A-Z_]+/.exec(message)?.[0];
  return new RenderError("navigation_failed", `The page could not be loaded${netError ? ` (${netError})` : ""}.`);
}

/**
 * The browser's own CSS parser judges the selector (querySelector throws a SyntaxError on one it cannot parse): one
 * DevTools round trip on the still blank page, so the answer is exactly what the wait would have understood, and
 * the page's own scripts (off or not yet loaded) play no part.
 */
async function assertValidSelector(page: Page, selector: string): Promise<void> {
  const parses = await page.evaluate((candidate) => {
    try {
      document.createDocumentFragment().querySelector(candidate);
      return true;
    } catch {
      return false;
    }
  }, selector);
  if (!parses) {
    throw new RenderError(
      "invalid_option",
      `wait_for ${JSON.stringify(selector)} is not a valid CSS selector; the browser cannot parse it.`,
      "wait_for",
      "must be a valid CSS selector",
    );
  }
}

async function waitForSelector(page: Page, selector: string, timeoutMs: number): Promise<void> {
  try {
    await page.waitForSelector(selector, { timeout: timeoutMs });
  } catch (error) {
    if (error instanceof Error && error.name === "TimeoutError") {
      throw new RenderError(
        "wait_for_timeout",
        `The selector ${JSON.stringify(selector)} did not appear within ${timeoutMs} ms.`,
        "wait_for",
        "never appeared on the page",
      );
    }
    if (error instanceof Error && /not a valid selector|SyntaxError/i.test(error.message)) {
      throw new RenderError("invalid_option", "wait_for is not a valid CSS selector.", "wait_for", "must be a valid CSS selector");
    }
    throw error;
  }
}

/**
 * Sets what the PDF needs from the DOM: a language and a title (kept when the document has its own), the
 * extra stylesheet, and the watermark. Runs through the DevTools protocol, so it works with page scripts off.
 */
async function finishDocument(page: Page, options: RenderOptions): Promise<{ title: string; lang: string }> {
  const watermark = options.watermark ? { ...options.watermark, fontSizePt: watermarkFontSizePt(options.watermark.text) } : null;
  return page.evaluate(
    (args) => {
      const root = document.documentElement;
      if (!root.lang) root.lang = args.lang;
      if (args.title !== null) document.title = args.title;
      else if (!document.title.trim()) document.title = args.fallbackTitle;
      const head = document.head ?? root.insertBefore(document.createElement("head"), root.firstChild);
      if (args.css !== null) {
        const style = document.createElement("style");
        style.textContent = args.css;
        head.appendChild(style);
      }
      if (args.watermark !== null) {
        const mark = document.createElement("div");
        mark.setAttribute("aria-hidden", "true");
        mark.textContent = args.watermark.text;
        mark.style.cssText = [
          "position:fixed",
          "top:50%",
          "left:50%",
          "transform:translate(-50%,-50%) rotate(-45deg)",
          `font-size:${args.watermark.fontSizePt}pt`,
          "font-weight:700",
          "white-space:nowrap",
          "color:#000",
          `opacity:${args.watermark.opacity}`,
          "z-index:2147483647",
          "pointer-events:none",
          "margin:0",
          "padding:0",
          "font-family:'Noto Sans','Noto Sans CJK SC','Noto Naskh Arabic','DejaVu Sans',sans-serif",
        ]
          .map((rule) => `${rule} !important`)
          .join(";");
        (document.body ?? root).appendChild(mark);
      }
      return { title: document.title, lang: root.lang };
    },
    { lang: options.lang, title: options.title ?? null, fallbackTitle: options.fallbackTitle, css: options.css ?? null, watermark },
  );
}

/** Large enough to cross the page, small enough that long texts still fit on the diagonal. */
function watermarkFontSizePt(text: string): number {
  return Math.round(Math.min(110, Math.max(20, 1100 / Math.max(1, [...text].length))));
}

function pdfOptions(options: RenderOptions): PDFOptions {
  const hasHeaderFooter = Boolean(options.headerHtml?.trim() || options.footerHtml?.trim());
  return {
    format: options.pageSize,
    landscape: options.orientation === "landscape",
    margin: options.margins,
    printBackground: options.printBackground,
    scale: options.scale,
    preferCSSPageSize: options.preferCssPageSize,
    displayHeaderFooter: hasHeaderFooter,
    headerTemplate: hasHeaderFooter ? buildTemplate(options.headerHtml, options.margins) : undefined,
    footerTemplate: hasHeaderFooter ? buildTemplate(options.footerHtml, options.margins) : undefined,
    tagged: options.pdfUa,
    outline: options.pdfUa,
    waitForFonts: true,
  };
}
