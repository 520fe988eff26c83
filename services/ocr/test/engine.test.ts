import type { Worker as ThreadWorker } from "node:worker_threads";
import { mkdtemp, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TesseractEngine } from "../src/engine/tesseract.js";
import { DEFAULT_SETTINGS } from "../src/settings.js";
import { renderTextPng, toGrayRaw } from "./support/render.js";
import { client, startService, UnknownData } from "@apiplat/testing";
import service from "../src/service.js";
import * as S from "../src/schemas.js";
import { TEST_SETTINGS, withMegaKey } from "./support/app.js";

describe("Tesseract engine", () => {
  it("fails a job at once when its worker thread dies, instead of leaving it hanging", async () => {
    const engine = await TesseractEngine.create("eng", DEFAULT_SETTINGS.langPath);
    const image = await toGrayRaw(
      await renderTextPng(Array.from({ length: 30 }, (_, i) => `Line ${i} of a page long enough to take a while.`).join("\n"), { pointSize: 12 }),
    );
    const job = engine.recognize(image, { psm: 3, dpi: 300, structured: false });
    const thread = (engine as unknown as { worker: { worker: ThreadWorker } }).worker.worker;
    const started = Date.now();
    await thread.terminate();
    await expect(job).rejects.toThrow("the OCR worker thread exited");
    expect(Date.now() - started).toBeLessThan(2_000);
    await engine.terminate();
  });

  it("refuses to start without the language data in its folder (it never downloads)", async () => {
    const empty = await mkdtemp(join(tmpdir(), "ocr-empty-tessdata-"));
    await expect(TesseractEngine.create("eng", empty)).rejects.toThrow(`language data missing: ${join(empty, "eng.traineddata")}`);
  });
});

describe("Tesseract engine with unreadable language data", () => {
  it("rejects switching to it and retires the worker, without an uncaught exception", async () => {
    const folder = await mkdtemp(join(tmpdir(), "ocr-bad-tessdata-"));
    await symlink(join(DEFAULT_SETTINGS.langPath, "eng.traineddata"), join(folder, "eng.traineddata"));
    await writeFile(join(folder, "zzz.traineddata"), "this is not trained data");
    const engine = await TesseractEngine.create("eng", folder);
    await expect(engine.setLanguages("zzz")).rejects.toBeDefined();
    const image = await toGrayRaw(await renderTextPng("Still here", { pointSize: 14 }));
    await expect(engine.recognize(image, { psm: 3, dpi: 300, structured: false })).rejects.toThrow("the OCR worker failed");
    await engine.terminate();
  });
});

describe("a deployment with one unreadable language file", () => {
  it("answers 500 for that language, keeps running, and serves the others", async () => {
    const folder = await mkdtemp(join(tmpdir(), "ocr-bad-tessdata-"));
    await symlink(join(DEFAULT_SETTINGS.langPath, "eng.traineddata"), join(folder, "eng.traineddata"));
    await symlink(join(DEFAULT_SETTINGS.langPath, "osd.traineddata"), join(folder, "osd.traineddata"));
    await writeFile(join(folder, "zzz.traineddata"), "this is not trained data");
    const ctx = await withMegaKey(await startService(service, { settings: { ...TEST_SETTINGS, langPath: folder, warmLanguages: "" } }));
    const api = client(ctx, ctx.headers);
    try {
      const png = (await renderTextPng("Still serving", { pointSize: 14 })).toString("base64");
      const broken = await api.post(UnknownData, "/extract", { image: png, language: "zzz" });
      expect([broken.status, broken.error.code]).toEqual([500, "INTERNAL_ERROR"]);
      const fine = await api.post(S.ExtractResultSchema, "/extract", { image: png });
      expect([fine.status, fine.data.text]).toEqual([200, "Still serving"]);
    } finally {
      await ctx.close();
    }
  });
});

describe("a deployment without the orientation detector's data (tesseract-ocr-osd)", () => {
  it("is not ready, answers 503 naming the package when detection is on, and reads pages as given when it is off", async () => {
    const folder = await mkdtemp(join(tmpdir(), "ocr-no-osd-"));
    await symlink(join(DEFAULT_SETTINGS.langPath, "eng.traineddata"), join(folder, "eng.traineddata"));
    const ctx = await withMegaKey(await startService(service, { settings: { ...TEST_SETTINGS, langPath: folder, warmLanguages: "" } }));
    const api = client(ctx, ctx.headers);
    try {
      expect((await api.get(UnknownData, "/ready", {})).status).toBe(503);
      const png = (await renderTextPng("Read as given", { pointSize: 14 })).toString("base64");
      const detecting = await api.post(UnknownData, "/extract", { image: png });
      expect(detecting.status).toBe(503);
      expect(detecting.error).toMatchObject({
        code: "UNAVAILABLE",
        message:
          "Orientation detection is not installed on this server (Tesseract's osd data, Debian package tesseract-ocr-osd); " +
          "send auto_rotate: false, or rotate, to read pages as given.",
      });
      const asGiven = await api.post(S.ExtractResultSchema, "/extract", { image: png, auto_rotate: false });
      expect([asGiven.status, asGiven.data.text]).toEqual([200, "Read as given"]);
    } finally {
      await ctx.close();
    }
  });
});
