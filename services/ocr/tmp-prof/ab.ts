import sharp from "sharp";
import { inkedRegion } from "../src/domain/content-crop.js";
import { grayFromPipeline } from "../src/domain/gray-image.js";
import { TesseractEngine } from "../src/engine/tesseract.js";
const lines = ["Example Supplies Ltd, 1 Sample Street, Exampletown", "Invoice 2041 issued on 22 November 2026", ""];
for (let i = 1; i <= 36; i++) lines.push(`Line ${i}: ${i * 3} units of sample article number ${1000 + i} at ${(i * 1.25).toFixed(2)} each.`);
lines.push("", "Payment is due within thirty days of the invoice date.", "Thank you for your order.");
const text = lines.map((line, i) => `<text x="236" y="${300 + i * 70}" font-family="DejaVu Serif" font-size="46">${line}</text>`).join("");
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="2480" height="3508"><rect width="100%" height="100%" fill="white"/>${text}</svg>`;
const image = await grayFromPipeline(sharp(await sharp(Buffer.from(svg)).flatten({ background: "#ffffff" }).grayscale().png().toBuffer()));
const region = inkedRegion(image)!;
const engine = await TesseractEngine.create("eng", "/usr/share/tesseract-ocr/5/tessdata");
await engine.recognize(image, { psm: 3, dpi: 300, structured: false, region, invertedText: true });
const results: Record<string, number[]> = { on: [], off: [] };
for (let i = 0; i < Number(process.env.ROUNDS ?? 4); i++) for (const invertedText of [true, false]) {
  const c = process.cpuUsage(); await engine.recognize(image, { psm: 3, dpi: 300, structured: false, region, invertedText }); const d = process.cpuUsage(c);
  results[invertedText ? "on" : "off"].push(Math.round((d.user + d.system) / 1000));
}
console.log(JSON.stringify(results));
await engine.terminate();
