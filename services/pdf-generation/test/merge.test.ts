import { describe, expect, test } from "vitest";
import { call, UnknownData } from "@apiplat/testing";
import { describeAuth } from "@apiplat/testing/auth-suite";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { pdfBytes, type TestService, warmServiceUnderTest } from "./helpers.js";
import { pageTexts, pdfInfo } from "./pdf-tools.js";
import { RenderResultSchema } from "../src/schemas.js";

const svc = warmServiceUnderTest();
const post: TestService["post"] = (...args) => svc.started.post(...args);
const ask: TestService["ask"] = (...args) => svc.started.ask(...args);

/** A PDF whose every page carries "<label> <n>", made with pdf-lib so it does not depend on the renderer. */
async function labelledPdf(label: string, pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) doc.addPage([300, 300]).drawText(`${label} ${i}`, { x: 40, y: 150, size: 18, font });
  return doc.save();
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

function multipart(files: Uint8Array[], fields: Record<string, string> = {}) {
  const boundary = "----pdfgen-test-boundary";
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  files.forEach((file, i) => {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="part-${i}.pdf"\r\nContent-Type: application/pdf\r\n\r\n`));
    parts.push(Buffer.from(file), Buffer.from("\r\n"));
  });
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe("POST /merge", () => {
  test("concatenates base64 PDFs in the order given", async () => {
    const res = await post("/merge", { files: [b64(await labelledPdf("Beta", 2)), b64(await labelledPdf("Alpha", 1))] });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toContain('filename="merged.pdf"');
    expect(res.headers["x-page-count"]).toBe("3");
    expect(pageTexts(pdfBytes(res)).map((t) => t.trim())).toEqual(["Beta 1", "Beta 2", "Alpha 1"]);
  });

  test("accepts uploads as multipart/form-data, in part order", async () => {
    const { body, contentType } = multipart([await labelledPdf("First", 1), await labelledPdf("Second", 1), await labelledPdf("Third", 1)], {
      filename: "bundle",
    });
    const res = await call(svc.started, RenderResultSchema, {
      method: "POST",
      url: "/merge?response=json",
      headers: { ...(await svc.started.headers("MEGA")), "content-type": contentType },
      payload: body,
    });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ filename: "bundle.pdf", page_count: 3, page_limit: 10000 });
    const pdf = Buffer.from(res.data.content_base64, "base64");
    expect(pageTexts(pdf).map((t) => t.trim())).toEqual(["First 1", "Second 1", "Third 1"]);
  });

  test("merges pages rendered by the service itself", async () => {
    const one = await post("/from-html", { html: "<p>Rendered one</p>" });
    const two = await post("/from-markdown", { markdown: "Rendered two" });
    const res = await post("/merge", { files: [b64(pdfBytes(one)), b64(pdfBytes(two))] });
    const pages = pageTexts(pdfBytes(res));
    expect(pages[0]).toContain("Rendered one");
    expect(pages[1]).toContain("Rendered two");
  });

  test("merging has its own page bound: two 60-page files merge on BASIC, 1,000 pages pass and 1,001 name ULTRA", async () => {
    const sixty = b64(await labelledPdf("P", 60));
    const twice = await ask("/merge", { files: [sixty, sixty] }, "BASIC", "?response=json");
    expect(twice.status).toBe(200);
    expect(twice.data).toMatchObject({ page_count: 120, page_limit: 1000 });
    const fiveHundred = b64(await labelledPdf("F", 500));
    const atLimit = await post("/merge", { files: [fiveHundred, fiveHundred] }, "BASIC");
    expect(atLimit.statusCode).toBe(200);
    expect(atLimit.headers["x-page-count"]).toBe("1000");
    expect(atLimit.headers["x-page-limit"]).toBe("1000");
    expect(pdfInfo(pdfBytes(atLimit)).pages).toBe(1000);
    const over = await ask("/merge", { files: [fiveHundred, fiveHundred, b64(await labelledPdf("Q", 1))] }, "PRO");
    expect(over.status).toBe(422);
    expect(over.error).toEqual({
      code: "UNPROCESSABLE",
      message:
        "The merged PDF would have 1001 pages; the PRO plan merges at most 1000 pages per request. Merge fewer files per request, or move to ULTRA (10000 pages per merge).",
      details: [{ field: "page_count", issue: "is 1001, above the PRO plan's merge limit of 1000" }],
    });
  }, 60_000);

  test("on MEGA, 10,000 pages merge in a worker thread (the event loop stays free) and 10,001 are refused naming no other plan", async () => {
    const half = b64(await labelledPdf("H", 5000));
    const merging = post("/merge", { files: [half, half] }, "MEGA");
    // While pdf-lib works through 10,000 pages (seconds of CPU), the service still answers at once.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const healthStarted = Date.now();
    expect((await svc.started.app.inject({ method: "GET", url: "/health" })).statusCode).toBe(200);
    expect(Date.now() - healthStarted).toBeLessThan(1_000);
    const atLimit = await merging;
    expect(atLimit.statusCode).toBe(200);
    expect(atLimit.headers["x-page-count"]).toBe("10000");
    expect(atLimit.headers["x-page-limit"]).toBe("10000");
    const over = await ask("/merge", { files: [half, half, b64(await labelledPdf("Q", 1))] }, "MEGA");
    expect(over.status).toBe(422);
    expect(over.error).toEqual({
      code: "UNPROCESSABLE",
      message:
        "The merged PDF would have 10001 pages; the MEGA plan merges at most 10000 pages per request. No plan merges more: keep a document this long in parts of at most 10000 pages.",
      details: [{ field: "page_count", issue: "is 10001, above the MEGA plan's merge limit of 10000" }],
    });
  }, 180_000);

  test("takes 2 to 50 files", async () => {
    const one = b64(await labelledPdf("One", 1));
    const fifty = await post("/merge", { files: Array.from({ length: 50 }, () => one) });
    expect(fifty.statusCode).toBe(200);
    expect(fifty.headers["x-page-count"]).toBe("50");
    const tooMany = await ask("/merge", { files: Array.from({ length: 51 }, () => one) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.error.details).toEqual([{ field: "files", issue: "must have at most 50 items" }]);
    const single = await ask("/merge", { files: [one] });
    expect(single.error.details).toEqual([{ field: "files", issue: "must have at least 2 items" }]);
  });

  test("BASIC merges 25 MiB of PDFs in total; one byte more is 413 naming PRO's bound", async () => {
    const small = await labelledPdf("Small", 1);
    const big = await labelledPdf("Big", 1);
    const limit = 25 * 1024 * 1024;
    // Whitespace after %%EOF is ignored by PDF readers: it sizes the file exactly.
    const padded = (extra: number) => Buffer.concat([Buffer.from(big), Buffer.alloc(limit - small.byteLength - big.byteLength + extra, 0x0a)]);
    const atLimit = await post("/merge", { files: [b64(small), b64(padded(0))] }, "BASIC");
    expect(atLimit.statusCode).toBe(200);
    expect(atLimit.headers["x-page-count"]).toBe("2");
    const over = await ask("/merge", { files: [b64(small), b64(padded(1))] }, "BASIC");
    expect(over.status).toBe(413);
    expect(over.error).toEqual({
      code: "PAYLOAD_TOO_LARGE",
      message:
        "files must total at most 26214400 bytes of PDF on the BASIC plan. Merge fewer or smaller files per request, or move to PRO (52428800 bytes per merge).",
      details: [{ field: "files", issue: "must total at most 26214400 bytes of PDF on the BASIC plan" }],
    });
    // The same 25 MiB and one byte are within PRO's bound.
    expect((await post("/merge", { files: [b64(small), b64(padded(1))] }, "PRO")).statusCode).toBe(200);
  }, 60_000);

  test("a body announced larger than the plan can merge is refused before it is read; on MEGA without naming another plan", async () => {
    const headers = { ...(await svc.started.headers("MEGA")), "content-type": "application/json" };
    const announced = String(Math.ceil((100 * 1024 * 1024 * 4) / 3) + 1024 * 1024 + 1);
    const res = await call(svc.started, UnknownData, { method: "POST", url: "/merge", headers: { ...headers, "content-length": announced }, payload: "{}" });
    expect(res.status).toBe(413);
    expect(res.error).toEqual({
      code: "PAYLOAD_TOO_LARGE",
      message: "files must total at most 104857600 bytes of PDF on the MEGA plan. No plan merges more: merge fewer or smaller files per request.",
      details: [{ field: "files", issue: "must total at most 104857600 bytes of PDF on the MEGA plan" }],
    });
  });

  test("a file that is not base64 is a 400 naming it; one that is not a PDF is a 422 naming it", async () => {
    const good = b64(await labelledPdf("Good", 1));
    const notBase64 = await ask("/merge", { files: [good, "this is not base64!"] });
    expect(notBase64.status).toBe(400);
    expect(notBase64.error.details).toEqual([{ field: "files[1]", issue: "must be a base64-encoded PDF" }]);
    const notPdf = await ask("/merge", { files: [Buffer.from("hello world").toString("base64"), good] });
    expect(notPdf.status).toBe(422);
    expect(notPdf.error.details).toEqual([{ field: "files[0]", issue: "must be a PDF document" }]);
    const damaged = await ask("/merge", { files: [good, Buffer.from("%PDF-1.7\n garbage").toString("base64")] });
    expect(damaged.status).toBe(422);
    expect(damaged.error.details?.[0].field).toBe("files[1]");
  });

  test("an encrypted PDF is a 422 naming it", async () => {
    // pdf-lib cannot encrypt; an /Encrypt dictionary in the trailer is what readers (and pdf-lib) detect.
    const plain = Buffer.from(await (await PDFDocument.load(await labelledPdf("Secret", 1))).save({ useObjectStreams: false })).toString("latin1");
    const encrypted = plain.replace(/trailer\s*<</, "trailer\n<<\n/Encrypt << /Filter /Standard /V 1 /R 2 /O <00> /U <00> /P -4 >>");
    expect(encrypted).not.toBe(plain);
    const res = await ask("/merge", { files: [b64(await labelledPdf("Open", 1)), Buffer.from(encrypted, "latin1").toString("base64")] });
    expect(res.status).toBe(422);
    expect(res.error.details).toEqual([{ field: "files[1]", issue: "must not be encrypted" }]);
  });

  test("a data: URL form of base64 is accepted", async () => {
    const res = await post("/merge", { files: [`data:application/pdf;base64,${b64(await labelledPdf("A", 1))}`, b64(await labelledPdf("B", 1))] });
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-page-count"]).toBe("2");
  });
});

describeAuth({ started: () => svc.started, method: "POST", url: "/merge", payload: { files: [] } });
