import sharp from "sharp";
import { inflateSync } from "node:zlib";
const lines: string[] = []; for (let i = 1; i <= 40; i++) lines.push(`Line ${i}: ${i * 3} units of sample article number ${1000 + i} at ${(i * 1.25).toFixed(2)} each.`);
const text = lines.map((line, i) => `<text x="236" y="${300 + i * 70}" font-family="DejaVu Serif" font-size="46">${line}</text>`).join("");
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="2480" height="3508"><rect width="100%" height="100%" fill="white"/>${text}</svg>`;
const png = await sharp(Buffer.from(svg)).flatten({ background: "#ffffff" }).grayscale().png().toBuffer();
function idat(buf: Buffer): Buffer { const parts: Buffer[] = []; let at = 8; while (at < buf.length) { const len = buf.readUInt32BE(at); const type = buf.toString("latin1", at + 4, at + 8); if (type === "IDAT") parts.push(buf.subarray(at + 8, at + 8 + len)); at += 12 + len; } return Buffer.concat(parts); }
async function time(label: string, f: () => unknown) { const c = process.cpuUsage(); for (let i = 0; i < 6; i++) await f(); const d = process.cpuUsage(c); console.log(label, ((d.user + d.system) / 6000).toFixed(0), "ms"); }
const data = idat(png);
for (let r = 0; r < 2; r++) {
  await time("sharp raw", () => sharp(png).raw().toBuffer());
  await time("sharp raw sequential", () => sharp(png, { sequentialRead: true }).raw().toBuffer());
  await time("zlib inflate only", () => inflateSync(data));
}
