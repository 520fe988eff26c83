import sharp from "sharp";
import { grayFromPipeline } from "../src/domain/gray-image.js";
import { TesseractEngine } from "../src/engine/tesseract.js";
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900"><rect width="100%" height="100%" fill="white"/>
<rect x="100" y="100" width="1400" height="140" fill="black"/><text x="140" y="195" font-family="DejaVu Sans" font-size="60" fill="white">Quarterly Report Summary</text>
<text x="140" y="400" font-family="DejaVu Serif" font-size="46">Revenue grew by twelve percent this quarter.</text>
<rect x="100" y="500" width="1400" height="100" fill="#222"/><text x="140" y="570" font-family="DejaVu Sans" font-size="44" fill="#eee">Contact: sales at example dot com</text></svg>`;
const image = await grayFromPipeline(sharp(Buffer.from(svg)));
const engine = await TesseractEngine.create("eng", "/usr/share/tesseract-ocr/5/tessdata");
for (const v of ["1", "0", "1"]) {
  await (engine as any).worker.setParameters({ tessedit_do_invert: v });
  const r = await engine.recognize(image, { psm: 3, dpi: 300, structured: false });
  console.log("invert", v, JSON.stringify(r.page.text));
}
await engine.terminate();
