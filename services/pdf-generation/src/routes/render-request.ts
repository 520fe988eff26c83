import { DEFAULTS } from "../domain/limits.js";
import { resolveFilename, resolveMargins } from "../domain/page-setup.js";
import type { RenderOptions } from "../browser/renderer.js";
import { originOf } from "../domain/request-policy.js";
import type { RenderOptionsBody } from "../schemas.js";

/** The request's snake_case options as the renderer's options, with every default filled in. */
export function renderOptionsFrom(body: RenderOptionsBody, fallbackTitle?: string): RenderOptions {
  const filename = resolveFilename(body.filename);
  return {
    pageSize: body.page_size ?? DEFAULTS.pageSize,
    orientation: body.orientation ?? DEFAULTS.orientation,
    margins: resolveMargins(body.margin),
    headerHtml: body.header_html,
    footerHtml: body.footer_html,
    watermark: body.watermark_text ? { text: body.watermark_text, opacity: body.watermark_opacity ?? DEFAULTS.watermarkOpacity } : undefined,
    css: body.css,
    printBackground: body.print_background ?? DEFAULTS.printBackground,
    scale: body.scale ?? DEFAULTS.scale,
    pdfUa: body.pdf_ua ?? false,
    title: body.title,
    lang: body.lang ?? DEFAULTS.lang,
    fallbackTitle: fallbackTitle ?? filename.replace(/\.pdf$/i, ""),
    emulateMedia: body.emulate_media ?? "print",
    preferCssPageSize: body.prefer_css_page_size ?? false,
    timeoutMs: body.timeout_ms ?? DEFAULTS.timeoutMs,
  };
}

/** allowed_origins as origins ("https://cdn.example.com"), the form the network policy compares. */
export function normalizeOrigins(origins: string[] | undefined): string[] {
  return (origins ?? []).map((o) => originOf(o)).filter((o): o is string => o !== null);
}
