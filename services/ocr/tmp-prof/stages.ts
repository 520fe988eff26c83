import sharp from "sharp";
import { estimateSkewDegrees } from "../src/domain/deskew.js";
import { inkedRegion } from "../src/domain/content-crop.js";
import { grayFromPipeline, toPgm } from "../src/domain/gray-image.js";
import { TesseractEngine } from "../src/engine/tesseract.js";

const lines = ["Example Supplies Ltd, 1 Sample Street, Exampletown", "Invoice 2041 issued on 22 November 2026", ""];
for (let i = 1; i <= 36; i++) lines.push(`Line ${i}: ${i * 3} units of sample article number ${1000 + i} at ${(i * 1.25).toFixed(2)} each.`);
lines.push("", "Payment is due within thirty days of the invoice date.", "Thank you for your order.");
const text = lines.map((line, i) => `<text x="236" y="${300 + i * 70}" font-family="DejaVu Serif" font-size="46">${line}</text>`).join("");
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="2480" height="3508"><rect width="100%" height="100%" fill="white"/>${text}</svg>`;
const png = await sharp(Buffer.from(svg)).flatten({ background: "#ffffff" }).grayscale().png().toBuffer();

function cpu<T>(label: string, f: () => T): T { const c = process.cpuUsage(); const t = Date.now(); const r = f(); const d = process.cpuUsage(c); console.log(label, ((d.user + d.system) / 1000).toFixed(0), "ms cpu", Date.now() - t, "ms wall"); return r; }
async function acpu<T>(label: string, f: () => Promise<T>): Promise<T> { const c = process.cpuUsage(); const t = Date.now(); const r = await f(); const d = process.cpuUsage(c); console.log(label, ((d.user + d.system) / 1000).toFixed(0), "ms cpu", Date.now() - t, "ms wall"); return r; }

const engine = await TesseractEngine.create("eng", process.env.LANGPATH ?? "/usr/share/tesseract-ocr/5/tessdata");
for (let round = 0; round < Number(process.env.ROUNDS ?? 2); round++) {
  const image = await acpu("decode", () => grayFromPipeline(sharp(png)));
  cpu("skew", () => estimateSkewDegrees(image));
  const region = cpu("ink", () => inkedRegion(image))!;
  cpu("pgm", () => toPgm(image, region));
  cpu("decode-raw-only", () => 0);
  await acpu("decode-plain", () => sharp(png).raw().toBuffer());
  const variants = (process.env.VARIANTS ?? "default").split(",");
  for (const v of variants) {
    const params: Record<string, string> = {};
    for (const kv of v.split(";")) if (kv.includes("=")) { const [k, val] = kv.split("="); params[k] = val; }
    await (engine as any).worker.setParameters(params);
    const r = await acpu(`recognize[${v}]`, () => engine.recognize(image, { psm: 3, dpi: 300, structured: false, region }));
    if (round === 0) console.log("  text len", r.page.text.length, "conf", r.page.confidence);
  }
}
await engine.terminate();
