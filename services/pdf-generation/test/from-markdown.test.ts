import { describe, expect, test } from "vitest";
import { pdfBytes, type TestService, warmServiceUnderTest } from "./helpers.js";
import { pageTexts, pdfInfo, wordBoxes } from "./pdf-tools.js";
import { markdownToHtml } from "../src/domain/markdown.js";
import { readHighlightTheme } from "../src/browser/highlight-theme.js";

const svc = warmServiceUnderTest();
const post: TestService["post"] = (...args) => svc.started.post(...args);
const ask: TestService["ask"] = (...args) => svc.started.ask(...args);

const SAMPLE = [
  "# Release notes",
  "",
  "Intro paragraph with **bold** and `inline code`.",
  "",
  "## Changes",
  "",
  "| Version | Date |",
  "|---|---|",
  "| 2.1.0 | 2026-03-01 |",
  "| 2.0.0 | 2026-01-15 |",
  "",
  "```typescript",
  "const answer: number = 42;",
  "```",
  "",
  "![dot](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=)",
].join("\n");

describe("POST /from-markdown", () => {
  test("renders headings, tables and code with the default stylesheet; the first heading is the title", async () => {
    const res = await ask("/from-markdown", { markdown: SAMPLE, pdf_ua: true }, "MEGA", "?response=json");
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ title: "Release notes", tagged: true, lang: "en", page_count: 1, blocked_requests: [] });
    const pdf = Buffer.from(res.data.content_base64, "base64");
    expect(pdfInfo(pdf).title).toBe("Release notes");
    const text = pageTexts(pdf)[0];
    for (const expected of ["Release notes", "Intro paragraph with bold and inline code", "Changes", "2.1.0", "2026-03-01", "const answer: number = 42;"]) {
      expect(text).toContain(expected);
    }
    const words = wordBoxes(pdf);
    const height = (word: string) => {
      const w = words.find((x) => x.word === word)!;
      return w.yMax - w.yMin;
    };
    // h1 (2em of 11pt) is drawn larger than body text.
    expect(height("Release")).toBeGreaterThan(height("Intro") * 1.6);
    // Table cells sit side by side.
    const version = words.find((w) => w.word === "2.1.0")!;
    const date = words.find((w) => w.word === "2026-03-01")!;
    expect(date.xMin).toBeGreaterThan(version.xMax);
    expect(Math.abs(date.yMin - version.yMin)).toBeLessThan(2);
  });

  test("code blocks are highlighted by language", async () => {
    const out = markdownToHtml("```typescript\nconst answer: number = 42;\n```", { title: "t", lang: "en" }, await readHighlightTheme());
    expect(out).toContain('<code class="hljs language-typescript"><span class="hljs-keyword">const</span>');
    expect(out).toContain(".hljs-keyword");
  });

  test("raw HTML in Markdown cannot reach the network", async () => {
    const res = await ask("/from-markdown", { markdown: '# Doc\n\n<img src="http://169.254.169.254/latest/meta-data/">' }, "MEGA", "?response=json");
    expect(res.data.blocked_requests).toEqual([
      { url: "http://169.254.169.254/latest/meta-data/", reason: "http://169.254.169.254 is not in allowed_origins" },
    ]);
  });

  test("takes the same page options as HTML", async () => {
    const res = await post("/from-markdown", {
      markdown: '# A\n\n<div class="page-break"></div>\n\n# B',
      page_size: "Letter",
      footer_html: "{{page}}/{{pages}}",
      filename: "notes",
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-disposition"]).toContain('filename="notes.pdf"');
    const pages = pageTexts(pdfBytes(res));
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain("1/2");
    expect(pages[1]).toContain("2/2");
    expect(pdfInfo(pdfBytes(res)).widthPt).toBe(612);
  });
});
