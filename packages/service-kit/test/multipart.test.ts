import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, type TestPlatform } from "@apiplat/testing";
import { acceptMultipart, createBaseApp, ok, type ServiceApp } from "../src/index.js";

let platform: TestPlatform;
let app: ServiceApp;

const LIMITS = { maxFiles: 2, maxFileBytes: 10, maxTotalBytes: 15, maxFields: 2, maxFieldBytes: 100 };

beforeAll(async () => {
  platform = await createTestPlatform();
  app = await createBaseApp({ name: "multipart-probe", host: "probe.api.local", url: "http://127.0.0.1:3999", deps: platform.deps, gatewaySecurity: false });
  acceptMultipart(
    app,
    LIMITS,
    {
      tooLarge: (field, limit) => ({ field, issue: limit === "file" ? "is over 10 bytes" : "are over 15 bytes together" }),
      tooManyFiles: { field: "files", issue: "must be at most 2" },
    },
    (form) => ({ fields: form.fields, files: form.files.map((f) => ({ field: f.field, filename: f.filename, text: f.data.toString() })) }),
  );
  app.post("/form", async (request) => ok(request.body));
});
afterAll(async () => {
  await app?.close();
  await platform?.close();
});

const BOUNDARY = "----probe-boundary";
type Part = { name: string; value: string; filename?: string };
function formBody(parts: Part[]): string {
  return (
    parts
      .map((p) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ""}\r\n\r\n${p.value}\r\n`)
      .join("") + `--${BOUNDARY}--\r\n`
  );
}
const post = (payload: string, contentType = `multipart/form-data; boundary=${BOUNDARY}`) =>
  app.inject({ method: "POST", url: "/form", headers: { "content-type": contentType }, payload });

describe("multipart/form-data bodies", () => {
  it("gives fields by name and files in the order sent, each file at its size limit", async () => {
    const res = await post(
      formBody([
        { name: "b", value: "second", filename: "b.txt" },
        { name: "title", value: "hello" },
        { name: "a", value: "12345", filename: "a.txt" },
      ]),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      fields: { title: "hello" },
      files: [
        { field: "b", filename: "b.txt", text: "second" },
        { field: "a", filename: "a.txt", text: "12345" },
      ],
    });
    expect((await post(formBody([{ name: "f", value: "0123456789", filename: "f" }]))).statusCode).toBe(200);
  });

  it("refuses a file one byte over its limit, and files over the total, with 413 naming the field", async () => {
    const over = await post(formBody([{ name: "f", value: "01234567890", filename: "f" }]));
    expect([over.statusCode, over.json().error.details]).toEqual([413, [{ field: "f", issue: "is over 10 bytes" }]]);
    const total = await post(
      formBody([
        { name: "x", value: "0123456789", filename: "x" },
        { name: "y", value: "012345", filename: "y" },
      ]),
    );
    expect([total.statusCode, total.json().error.details]).toEqual([413, [{ field: "y", issue: "are over 15 bytes together" }]]);
  });

  it("refuses more files or fields than allowed with 400", async () => {
    const files = await post(formBody(["1", "2", "3"].map((v) => ({ name: "f", value: v, filename: `${v}.txt` }))));
    expect([files.statusCode, files.json().error.details]).toEqual([400, [{ field: "files", issue: "must be at most 2" }]]);
    const fields = await post(
      formBody([
        { name: "a", value: "1" },
        { name: "b", value: "2" },
        { name: "c", value: "3" },
      ]),
    );
    expect([fields.statusCode, fields.json().error.details]).toEqual([400, [{ field: "body", issue: "must have at most 2 form fields" }]]);
  });

  it("refuses a form without a boundary or cut short with 400", async () => {
    const noBoundary = await post(formBody([{ name: "a", value: "1" }]), "multipart/form-data");
    expect([noBoundary.statusCode, noBoundary.json().error.details]).toEqual([400, [{ field: "body", issue: "must be multipart/form-data with a boundary" }]]);
    const cut = await post(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\n\r\nunfinished`);
    expect([cut.statusCode, cut.json().error.details]).toEqual([400, [{ field: "body", issue: "must be a well-formed multipart/form-data body" }]]);
  });
});
