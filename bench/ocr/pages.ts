/**
 * Real page images with known text for the OCR benches: documents laid out by Chromium (articles in one and two
 * columns, a letter, an invoice with a ruled table, a slide, a short note, a page of lower-case text) from Wikipedia
 * text in the datasets folder, printed to PDF, rasterised by pdftoppm, plus one "scan" (skewed, blurred, grainy JPEG).
 * The reference text of each page is what pdftotext reads from the PDF.
 *   Needs: chromium (CHROMIUM_PATH), pdftoppm and pdftotext (poppler-utils).
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { loadConfig } from "@apiplat/config";

const run = promisify(execFile);
const requireFromService = createRequire(new URL("../../services/ocr/package.json", import.meta.url));
const sharp = requireFromService("sharp") as typeof import("../../services/ocr/node_modules/sharp/lib/index.js");
const requireCsv = createRequire(new URL("../../packages/catalogue/package.json", import.meta.url));
const { parse } = requireCsv("csv-parse/sync") as { parse: (text: string, options: object) => Record<string, string>[] };

export interface BenchPage {
  name: string;
  /** Upright page image (PNG, or JPEG for the scan). */
  image: Buffer;
  /** The page's text as the PDF holds it. */
  reference: string;
}

const DPI = 200;

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Plot paragraphs without Wikipedia's reference marks ("[1]"). */
function cleanPlot(plot: string): string {
  return plot
    .replace(/\[\d+\]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

async function readTexts(): Promise<{ plots: { title: string; plot: string }[]; people: { name: string; text: string }[] }> {
  const datasets = path.join(loadConfig(process.env).datasetsDir, "search-results/web");
  const movies = parse(await readFile(path.join(datasets, "wiki_movie_plots_sample.csv"), "utf8"), { columns: true });
  const people = parse(await readFile(path.join(datasets, "people_wiki_sample.csv"), "utf8"), { columns: true });
  const plots = movies
    .map((row) => ({ title: row.Title, plot: cleanPlot(row.Plot) }))
    .filter((row) => row.plot.length > 1500)
    .slice(0, 12);
  return { plots, people: people.slice(0, 3).map((row) => ({ name: row.name.replace(/\\'/g, "'"), text: row.text })) };
}

/** Each document is one A4 page of HTML; its text is cut by the page box (overflow hidden), never continued. */
function documents(texts: Awaited<ReturnType<typeof readTexts>>): { name: string; html: string; trim?: boolean }[] {
  const [p0, p1, p2, p3, p4, p5, p6] = texts.plots;
  const para = (text: string, max: number) => `<p>${escapeHtml(text.slice(0, max).replace(/\s\S*$/, ""))}.</p>`;
  return [
    { name: "article, serif 11 pt", html: `<h1>${escapeHtml(p0.title)}</h1>${para(p0.plot, 2600)}<h2>${escapeHtml(p1.title)}</h2>${para(p1.plot, 1400)}` },
    {
      name: "two columns, sans 10 pt",
      html: `<style>body{font-family:'DejaVu Sans';font-size:10pt}.cols{column-count:2;column-gap:8mm}</style><h1>${escapeHtml(p2.title)}</h1><div class="cols">${para(p2.plot, 2400)}${para(p3.plot, 2400)}</div>`,
    },
    {
      name: "letter, 12 pt, 14 lines",
      html: `<style>body{font-family:'Liberation Serif','DejaVu Serif';font-size:12pt}</style><p>Example Supplies Ltd<br>1 Sample Street<br>Exampletown</p><p>22 November 2026</p><p>Dear customer,</p>${para(p4.plot, 600)}<p>Yours sincerely,<br>The accounts team</p>`,
    },
    {
      name: "invoice with a ruled table",
      html: `<style>body{font-family:'DejaVu Sans';font-size:10pt}table{border-collapse:collapse;width:100%}td,th{border:1px solid #000;padding:4px 8px}</style>
<h1>Invoice 2041</h1><p>Issued 22 November 2026 to Sample Trading GmbH</p><table><tr><th>Item</th><th>Quantity</th><th>Unit price</th><th>Amount</th></tr>${Array.from(
        { length: 14 },
        (_, i) =>
          `<tr><td>Sample article ${1001 + i}</td><td>${(i % 5) + 1}</td><td>${(9.5 + i * 1.25).toFixed(2)}</td><td>${(((i % 5) + 1) * (9.5 + i * 1.25)).toFixed(2)}</td></tr>`,
      ).join("")}</table><p>Payment is due within thirty days of the invoice date. Thank you for your order.</p>`,
    },
    {
      name: "slide, 28 pt, landscape text",
      html: `<style>body{font-family:'DejaVu Sans';font-size:28pt}</style><h1 style="font-size:40pt">Quarterly review</h1><p>Revenue grew by twelve percent</p><p>Three new markets opened this year</p><p>Costs fell in every region</p>`,
    },
    {
      name: "short note, 4 lines (trimmed image)",
      html: `<style>body{font-family:'DejaVu Serif';font-size:11pt;width:120mm}</style>${para(p5.plot, 330)}`,
      trim: true,
    },
    {
      name: "lower-case text, sans 11 pt",
      html: `<style>body{font-family:'DejaVu Sans';font-size:11pt}</style><h2>${escapeHtml(texts.people[0].name)}</h2><p>${escapeHtml(texts.people[0].text.slice(0, 2200))}</p><h2>${escapeHtml(texts.people[1].name)}</h2><p>${escapeHtml(texts.people[1].text.slice(0, 1200))}</p>`,
    },
    {
      name: "article, serif 9 pt, dense",
      html: `<style>body{font-family:'DejaVu Serif';font-size:9pt}</style><h2>${escapeHtml(p6.title)}</h2>${para(p6.plot, 5200)}`,
    },
    { name: "heading and one line (trimmed image)", html: `<h2>${escapeHtml(p3.title)}</h2><p>Released in the United States.</p>`, trim: true },
  ];
}

const PAGE_CSS = `<style>@page{size:A4;margin:20mm}html,body{margin:0}body{font-family:'DejaVu Serif';font-size:11pt;line-height:1.35;color:#000}
.page{height:257mm;overflow:hidden;break-after:page}h1{font-size:20pt}h2{font-size:15pt}</style>`;

async function printToPdf(html: string, directory: string): Promise<string> {
  const htmlFile = path.join(directory, "pages.html");
  const pdfFile = path.join(directory, "pages.pdf");
  await writeFile(htmlFile, html);
  await run(
    process.env.CHROMIUM_PATH ?? "chromium",
    ["--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer", `--print-to-pdf=${pdfFile}`, `file://${htmlFile}`],
    { timeout: 120_000 },
  );
  return pdfFile;
}

/** A flatbed scan: turned 2 degrees, blurred, grey grainy paper with specks, JPEG quality 70. */
async function simulateScan(png: Buffer): Promise<Buffer> {
  const turned = await sharp(png)
    .rotate(2, { background: "#ffffff" })
    .flatten({ background: "#ffffff" })
    .grayscale()
    .blur(0.7)
    .raw()
    .toBuffer({ resolveWithObject: true });
  let state = 7;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pixels = turned.data;
  for (let i = 0; i < pixels.length; i++) {
    const speck = random() < 0.0015 ? -160 : 0;
    pixels[i] = Math.max(0, Math.min(255, Math.round(pixels[i] * 0.92 + 8 + (random() - 0.5) * 30 + speck)));
  }
  return sharp(pixels, { raw: { width: turned.info.width, height: turned.info.height, channels: 1 } })
    .jpeg({ quality: 70 })
    .toBuffer();
}

export async function buildPages(): Promise<BenchPage[]> {
  const docs = documents(await readTexts());
  const directory = await mkdtemp(path.join(tmpdir(), "ocr-bench-pages-"));
  try {
    const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">${PAGE_CSS}</head><body>${docs.map((doc) => `<div class="page">${doc.html}</div>`).join("")}</body></html>`;
    const pdf = await printToPdf(html, directory);
    const pages: BenchPage[] = [];
    for (const [index, doc] of docs.entries()) {
      const number = String(index + 1);
      await run("pdftoppm", ["-r", String(DPI), "-gray", "-png", "-f", number, "-l", number, "-singlefile", pdf, path.join(directory, "page")]);
      const { stdout: reference } = await run("pdftotext", ["-f", number, "-l", number, pdf, "-"]);
      let image: Buffer = await readFile(path.join(directory, "page.png"));
      if (doc.trim) image = await sharp(image).trim().extend({ top: 30, bottom: 30, left: 30, right: 30, background: "#ffffff" }).png().toBuffer();
      pages.push({ name: doc.name, image, reference });
    }
    pages.push({ name: "scan of the first article (JPEG, 2 degrees, noise)", image: await simulateScan(pages[0].image), reference: pages[0].reference });
    return pages;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** 1 - CER over code points, whitespace runs folded to one space. */
export function characterAccuracy(reference: string, recognised: string): number {
  const a = [...reference.replace(/\s+/g, " ").trim()];
  const b = [...recognised.replace(/\s+/g, " ").trim()];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return Math.max(0, 1 - previous[b.length] / Math.max(1, a.length));
}
