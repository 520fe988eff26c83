import { afterAll, describe, expect, test } from "vitest";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { MergePool } from "../src/merging/merge-pool.js";

/** A PDF of `pages` small pages, each with one line of text. */
async function pagesPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) doc.addPage([300, 300]).drawText(`Page ${i}`, { x: 40, y: 150, size: 18, font });
  return doc.save();
}

const pool = new MergePool({ threads: 1, maxQueue: 0, timeoutMs: 1_500, heapMb: 512 });
afterAll(() => pool.close());

describe("merge threads", () => {
  test("a merge past its time is stopped (its thread with it) and said so; one waiting past the queue is refused at once", async () => {
    const half = await pagesPdf(5000);
    // The thread is up before the clock matters.
    const warm = await pagesPdf(1);
    await pool.merge([warm, warm], "BASIC");
    const started = Date.now();
    const heavy = pool.merge([half, half], "MEGA");
    // The only thread is busy and no merge may wait: refused without waiting.
    await expect(pool.merge([half, half], "MEGA")).rejects.toMatchObject({ kind: "busy" });
    await expect(heavy).rejects.toMatchObject({
      kind: "merge_too_heavy",
      message: "The merge did not finish within 1500 ms; merge fewer or smaller files per request.",
    });
    expect(Date.now() - started).toBeLessThan(15_000);
    // A fresh thread takes the next merge.
    const small = await pagesPdf(2);
    await expect(pool.merge([small, small], "BASIC")).resolves.toMatchObject({ pageCount: 4 });
  }, 60_000);
});
