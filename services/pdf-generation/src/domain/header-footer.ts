import { DEFAULTS } from "./limits.js";
import type { Margins } from "./page-setup.js";

/**
 * Friendly placeholders a user writes in header_html / footer_html, and the Chromium print-template classes
 * they become. Chromium fills those spans on every page.
 */
const PLACEHOLDERS: Record<string, string> = {
  page: "pageNumber",
  pages: "totalPages",
  title: "title",
  date: "date",
  url: "url",
};

function translatePlaceholders(html: string): string {
  return html.replace(/\{\{\s*(page|pages|title|date|url)\s*\}\}/g, (_match, name: string) => `<span class="${PLACEHOLDERS[name]}"></span>`);
}

/**
 * Chromium renders header and footer templates in their own tiny document: page styles do not apply, and its
 * default font size is so small it is unreadable. The wrapper sets a readable size, a font that covers Latin,
 * CJK and Arabic, and the page's side margins so the text lines up with the body.
 */
export function buildTemplate(userHtml: string | undefined, margins: Margins): string {
  if (userHtml === undefined || userHtml.trim() === "") return "<span></span>";
  const style = [
    "width:100%",
    "box-sizing:border-box",
    `font-size:${DEFAULTS.headerFooterFontSizePx}px`,
    "font-family:'Noto Sans','Noto Sans CJK SC','Noto Naskh Arabic','DejaVu Sans',sans-serif",
    "color:#333",
    `padding:0 ${margins.right} 0 ${margins.left}`,
    "-webkit-print-color-adjust:exact",
    "print-color-adjust:exact",
  ].join(";");
  return `<div style="${style}">${translatePlaceholders(userHtml)}</div>`;
}
