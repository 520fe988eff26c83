/**
 * OCR pages per second and latency (p50/p99) for an A4 page scanned at 300 dpi (2480 x 3508 px, 40 lines of text),
 * at concurrency 1 and 2, on /extract and /extract/structured, against a real listening instance; peak RSS of the
 * process (the Tesseract workers are threads of it, so their WebAssembly memory is included).
 *   bash scripts/pnpm.sh exec tsx bench/ocr/a4-page.ts
 * BENCH_RUN_PAGES (default 8) pages are sent per run, so that no run leaves work behind for the next;
 * BENCH_PAGES (default 5) sequential pages measure CPU time; OCR_POOL_SIZE sizes the worker pool (default 2).
 */
import { createRequire } from "node:module";
import { startInstance } from "./instance.js";
import { characterAccuracy } from "./pages.js";

// autocannon and sharp are dependencies of the service; the bench folder has no node_modules of its own.
const requireFromService = createRequire(new URL("../../services/ocr/package.json", import.meta.url));
const autocannon = requireFromService("autocannon") as typeof import("autocannon");
const sharp = requireFromService("sharp") as typeof import("../../services/ocr/node_modules/sharp/lib/index.js");

const pagesPerRun = Number(process.env.BENCH_RUN_PAGES ?? 8);
const A4_300DPI = { width: 2480, height: 3508 };

/** The text of the page: an invoice-like letter, so that the page holds the line count of a real document. */
function pageLines(): string[] {
  const lines = ["Example Supplies Ltd, 1 Sample Street, Exampletown", "Invoice 2041 issued on 22 November 2026", ""];
  for (let i = 1; i <= 36; i++) {
    lines.push(`Line ${i}: ${i * 3} units of sample article number ${1000 + i} at ${(i * 1.25).toFixed(2)} each.`);
  }
  lines.push("", "Payment is due within thirty days of the invoice date.", "Thank you for your order.");
  return lines;
}

async function renderA4(lines: string[]): Promise<Buffer> {
  const text = lines
    .map((line, i) => `<text x="236" y="${300 + i * 70}" font-family="DejaVu Serif" font-size="46">${line.replace(/&/g, "&amp;")}</text>`)
    .join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${A4_300DPI.width}" height="${A4_300DPI.height}"><rect width="100%" height="100%" fill="white"/>${text}</svg>`;
  return sharp(Buffer.from(svg)).flatten({ background: "#ffffff" }).grayscale().png().toBuffer();
}

function trackPeakRss(): { peakMiB: () => number; stop: () => void } {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  return { peakMiB: () => Math.round(peak / 1024 / 1024), stop: () => clearInterval(timer) };
}

async function main(): Promise<void> {
  const lines = pageLines();
  const png = await renderA4(lines);
  const body = JSON.stringify({ image: png.toString("base64") });
  const instance = await startInstance();
  const headers = { ...instance.headers, "content-type": "application/json" };
  try {
    // Warm-up: the first request pays for starting a worker and loading English.
    const warm = await fetch(`${instance.url}/extract`, { method: "POST", headers, body });
    const warmData = (await warm.json()) as { data: { text: string; timing: Record<string, number>; confidence: number } };
    console.log(`page ${A4_300DPI.width}x${A4_300DPI.height} px, PNG ${png.length} bytes, ${lines.filter(Boolean).length} lines`);
    console.log(
      `character accuracy on the page: ${characterAccuracy(lines.join("\n"), warmData.data.text).toFixed(4)}, confidence ${warmData.data.confidence}`,
    );
    // CPU time per page: the process's user + system time over sequential requests. On a shared machine this is the
    // figure that stays honest; wall time there includes waiting for a core.
    const sequentialPages = Number(process.env.BENCH_PAGES ?? 5);
    for (const path of ["/extract", "/extract/structured"]) {
      const cpuBefore = process.cpuUsage();
      const wallBefore = Date.now();
      const recognizeMs: number[] = [];
      for (let i = 0; i < sequentialPages; i++) {
        const response = await fetch(`${instance.url}${path}`, { method: "POST", headers, body });
        recognizeMs.push(((await response.json()) as { data: { timing: { recognize_ms: number } } }).data.timing.recognize_ms);
      }
      const cpu = process.cpuUsage(cpuBefore);
      console.log(
        `${path} sequential ${sequentialPages} pages: CPU ${((cpu.user + cpu.system) / 1000 / sequentialPages).toFixed(0)} ms/page, ` +
          `wall ${((Date.now() - wallBefore) / sequentialPages).toFixed(0)} ms/page, recognize_ms ${recognizeMs.join(", ")}`,
      );
    }

    for (const path of ["/extract", "/extract/structured"]) {
      for (const connections of [1, 2]) {
        const rss = trackPeakRss();
        const result = await autocannon({ url: `${instance.url}${path}`, method: "POST", headers, body, connections, amount: pagesPerRun, timeout: 300 });
        rss.stop();
        const pagesPerSecond = result.requests.total / result.duration;
        console.log(
          `${path} concurrency ${connections}: ${pagesPerSecond.toFixed(2)} pages/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
            `${result.requests.total} pages, non-2xx ${result.non2xx}, errors ${result.errors}, peak RSS ${rss.peakMiB()} MiB`,
        );
      }
    }
  } finally {
    await instance.close();
  }
}

await main();
