/**
 * OCR orientation accuracy on turned pages: every page of bench/ocr/pages.ts (real page images with known text) is
 * sent turned clockwise by 0, 90, 180 and 270 degrees to /extract of a real listening instance, at the default
 * settings (orientation detection on) and with auto_rotate: false (reading the page as given), one after the other.
 * Per angle: the share of pages whose reported rotation_degrees turns them upright, the mean character accuracy
 * (1 - CER against the PDF's text) and the mean confidence; then the cost of detection per page: the service's
 * timing.orientation_ms and the process CPU time of both settings on the same pages (the Tesseract workers are
 * threads of this process).
 *   bash scripts/pnpm.sh exec tsx bench/ocr/orientation.ts
 * OCR_POOL_SIZE (default 2) sizes the worker pool; pages are sent one at a time.
 */
import { createRequire } from "node:module";
import { startInstance } from "./instance.js";
import { buildPages, characterAccuracy } from "./pages.js";

const requireFromService = createRequire(new URL("../../services/ocr/package.json", import.meta.url));
const sharp = requireFromService("sharp") as typeof import("../../services/ocr/node_modules/sharp/lib/index.js");

const ANGLES = [0, 90, 180, 270] as const;

interface PageAnswer {
  text: string;
  confidence: number;
  pages: { rotation_degrees: number; orientation: { decided_by: string; osd_confidence: number | null } | null }[];
  timing: { orientation_ms: number; recognize_ms: number; total_ms: number };
}

interface Row {
  page: string;
  angle: number;
  setting: "default" | "auto_rotate false";
  upright: boolean;
  accuracy: number;
  confidence: number;
  decidedBy: string;
  orientationMs: number;
  cpuMs: number;
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main(): Promise<void> {
  const pages = await buildPages();
  const instance = await startInstance();
  const headers = { ...instance.headers, "content-type": "application/json" };
  const extract = async (body: object): Promise<{ data: PageAnswer; cpuMs: number }> => {
    const cpu = process.cpuUsage();
    const response = await fetch(`${instance.url}/extract`, { method: "POST", headers, body: JSON.stringify(body) });
    const json = (await response.json()) as { data: PageAnswer };
    const used = process.cpuUsage(cpu);
    if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${JSON.stringify(json)}`);
    return { data: json.data, cpuMs: (used.user + used.system) / 1000 };
  };
  const rows: Row[] = [];
  try {
    await extract({ image: pages[0].image.toString("base64") }); // warm-up: both workers start, English and osd load
    for (const page of pages) {
      for (const angle of ANGLES) {
        const turned = angle === 0 ? page.image : await sharp(page.image).rotate(angle).toBuffer();
        const image = turned.toString("base64");
        for (const setting of ["default", "auto_rotate false"] as const) {
          const { data, cpuMs } = await extract(setting === "default" ? { image } : { image, auto_rotate: false });
          const rotation = data.pages[0].rotation_degrees;
          rows.push({
            page: page.name,
            angle,
            setting,
            upright: (angle + rotation) % 360 === 0,
            accuracy: characterAccuracy(page.reference, data.text),
            confidence: data.confidence,
            decidedBy: data.pages[0].orientation?.decided_by ?? "-",
            orientationMs: data.timing.orientation_ms,
            cpuMs,
          });
          const row = rows[rows.length - 1];
          console.log(
            `${page.name.padEnd(52)} ${String(angle).padStart(3)} ${setting.padEnd(17)} turned ${String(rotation).padStart(3)} ` +
              `upright ${row.upright ? "yes" : "no "} accuracy ${row.accuracy.toFixed(3)} confidence ${row.confidence.toFixed(2)} ` +
              `${data.pages[0].orientation ? `osd ${data.pages[0].orientation.osd_confidence} by ${row.decidedBy}` : ""} ` +
              `orientation_ms ${data.timing.orientation_ms} cpu ${cpuMs.toFixed(0)} ms`,
          );
        }
      }
    }
  } finally {
    await instance.close();
  }

  console.log(`\n${pages.length} pages x ${ANGLES.length} angles`);
  console.log("| setting | turned by | read upright | mean character accuracy | pages with accuracy >= 0.9 | mean confidence |");
  console.log("|---|---|---|---|---|---|");
  for (const setting of ["default", "auto_rotate false"] as const) {
    for (const angle of ANGLES) {
      const of = rows.filter((row) => row.setting === setting && row.angle === angle);
      const upright = of.filter((row) => row.upright).length;
      const good = of.filter((row) => row.accuracy >= 0.9).length;
      console.log(
        `| ${setting} | ${angle} | ${upright}/${of.length} | ${mean(of.map((r) => r.accuracy)).toFixed(3)} | ${good}/${of.length} | ` +
          `${mean(of.map((r) => r.confidence)).toFixed(2)} |`,
      );
    }
  }
  const byDefault = rows.filter((row) => row.setting === "default");
  const decided = new Map<string, number>();
  for (const row of byDefault) decided.set(row.decidedBy, (decided.get(row.decidedBy) ?? 0) + 1);
  console.log(`\ndecided by: ${[...decided].map(([k, v]) => `${k} ${v}`).join(", ")}`);
  console.log(
    `orientation_ms per page (default): median ${median(byDefault.map((r) => r.orientationMs))}, mean ${mean(byDefault.map((r) => r.orientationMs)).toFixed(0)}`,
  );
  const upright = (setting: Row["setting"]) => rows.filter((row) => row.setting === setting && row.angle === 0).map((row) => row.cpuMs);
  console.log(
    `process CPU per upright page: default ${mean(upright("default")).toFixed(0)} ms, auto_rotate false ${mean(upright("auto_rotate false")).toFixed(0)} ms`,
  );
}

await main();
