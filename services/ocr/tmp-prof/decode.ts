import sharp from "sharp";
import { grayFromPipeline } from "../src/domain/gray-image.js";
const lines: string[] = []; for (let i = 1; i <= 40; i++) lines.push(`Line ${i}: ${i * 3} units of sample article number ${1000 + i} at ${(i * 1.25).toFixed(2)} each.`);
const text = lines.map((line, i) => `<text x="236" y="${300 + i * 70}" font-family="DejaVu Serif" font-size="46">${line}</text>`).join("");
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="2480" height="3508"><rect width="100%" height="100%" fill="white"/>${text}</svg>`;
const png = await sharp(Buffer.from(svg)).flatten({ background: "#ffffff" }).grayscale().png().toBuffer();
async function time(label: string, f: () => Promise<unknown>) { const c = process.cpuUsage(); for (let i = 0; i < 5; i++) await f(); const d = process.cpuUsage(c); console.log(label, ((d.user + d.system) / 5000).toFixed(0), "ms cpu/decode"); }
for (let round = 0; round < 2; round++) {
  sharp.concurrency(0);
  await time("default", () => grayFromPipeline(sharp(png, { limitInputPixels: false, failOn: "error" }).rotate()));
  sharp.concurrency(1);
  await time("concurrency1", () => grayFromPipeline(sharp(png, { limitInputPixels: false, failOn: "error" }).rotate()));
  sharp.cache(false);
  await time("concurrency1 nocache", () => grayFromPipeline(sharp(png, { limitInputPixels: false, failOn: "error" }).rotate()));
  sharp.cache(true);
}
console.log(sharp.concurrency(), JSON.stringify(sharp.versions));
