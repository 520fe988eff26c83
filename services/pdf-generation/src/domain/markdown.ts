import MarkdownIt from "markdown-it";
import hljs from "highlight.js";

/** The default look of a Markdown document: readable body text, clear headings, ruled tables, shaded code. */
const MARKDOWN_STYLESHEET = `
html { font-size: 11pt; }
body {
  font-family: 'Noto Sans', 'Noto Sans CJK SC', 'Noto Naskh Arabic', 'DejaVu Sans', sans-serif;
  line-height: 1.55; color: #1f2328; margin: 0; overflow-wrap: break-word;
}
h1, h2, h3, h4, h5, h6 { font-weight: 600; line-height: 1.25; margin: 1.4em 0 0.6em; break-after: avoid; }
h1 { font-size: 2em; padding-bottom: 0.3em; border-bottom: 1px solid #d1d9e0; }
h2 { font-size: 1.5em; padding-bottom: 0.3em; border-bottom: 1px solid #d1d9e0; }
h3 { font-size: 1.25em; } h4 { font-size: 1em; } h5 { font-size: 0.875em; } h6 { font-size: 0.85em; color: #59636e; }
body > :first-child { margin-top: 0; }
p, ul, ol, blockquote, table, pre { margin: 0 0 1em; }
a { color: #0969da; text-decoration: none; }
blockquote { padding: 0 1em; color: #59636e; border-left: 0.25em solid #d1d9e0; }
code, pre, kbd { font-family: 'DejaVu Sans Mono', 'Noto Sans Mono', monospace; font-size: 0.88em; }
:not(pre) > code { padding: 0.15em 0.35em; background: #eff1f3; border-radius: 4px; }
pre { padding: 0.9em 1em; background: #f6f8fa; border-radius: 6px; white-space: pre-wrap; break-inside: avoid; }
pre code.hljs { padding: 0; background: transparent; }
table { border-collapse: collapse; width: auto; max-width: 100%; break-inside: auto; }
tr { break-inside: avoid; }
th, td { border: 1px solid #d1d9e0; padding: 0.35em 0.8em; text-align: left; vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; }
tr:nth-child(2n) td { background: #fafbfc; }
img { max-width: 100%; height: auto; break-inside: avoid; }
hr { border: 0; border-top: 1px solid #d1d9e0; margin: 1.5em 0; }
ul ul, ol ol, ul ol, ol ul { margin-bottom: 0; }
.page-break { break-after: page; }
`;

const markdown: MarkdownIt = new MarkdownIt({
  html: true,
  linkify: true,
  typographer: false,
  highlight(code, language) {
    const lang = language.trim().toLowerCase();
    if (lang && hljs.getLanguage(lang)) {
      return `<pre><code class="hljs language-${escapeHtml(lang)}">${hljs.highlight(code, { language: lang, ignoreIllegals: true }).value}</code></pre>`;
    }
    return `<pre><code class="hljs">${escapeHtml(code)}</code></pre>`;
  },
});

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** The text of the first heading, a natural document title when the request names none. */
export function firstHeading(source: string): string | undefined {
  const token = markdown.parse(source, {}).find((t, i, all) => t.type === "inline" && all[i - 1]?.type === "heading_open");
  const text = token?.children
    ?.filter((c) => c.type === "text" || c.type === "code_inline")
    .map((c) => c.content)
    .join("")
    .trim();
  return text ? text : undefined;
}

/** `highlightTheme`: the stylesheet of highlight.js's classes in code blocks (browser/highlight-theme.ts reads it). */
export function markdownToHtml(source: string, document: { title: string; lang: string }, highlightTheme: string): string {
  return [
    "<!DOCTYPE html>",
    `<html lang="${escapeHtml(document.lang)}"><head><meta charset="utf-8">`,
    `<title>${escapeHtml(document.title)}</title>`,
    `<style>${MARKDOWN_STYLESHEET}${highlightTheme}</style>`,
    "</head><body>",
    markdown.render(source),
    "</body></html>",
  ].join("\n");
}
