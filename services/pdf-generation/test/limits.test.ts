import { describe, expect, test } from "vitest";
import type { TypedAnswer } from "@apiplat/testing";
import { html, pagedHtml, pdfBytes, type TestService, warmServiceUnderTest } from "./helpers.js";
import { pageTexts, pdfInfo } from "./pdf-tools.js";

const svc = warmServiceUnderTest();
const post: TestService["post"] = (...args) => svc.started.post(...args);
const ask: TestService["ask"] = (...args) => svc.started.ask(...args);

function expectInvalid(res: TypedAnswer<unknown>, field: string, issue: string) {
  expect(res.status).toBe(400);
  expect(res.error.code).toBe("VALIDATION_ERROR");
  expect(res.error.details).toEqual([{ field, issue }]);
}

describe("page limit per plan", () => {
  test("BASIC renders a 100-page document", async () => {
    const res = await post("/from-html", { html: pagedHtml(100) }, "BASIC");
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-page-count"]).toBe("100");
    expect(res.headers["x-page-limit"]).toBe("100");
    expect(pdfInfo(pdfBytes(res)).pages).toBe(100);
  });

  test("BASIC refuses a 101-page document with 422 naming the page count and the limit", async () => {
    const res = await ask("/from-html", { html: pagedHtml(101) }, "BASIC");
    expect(res.status).toBe(422);
    expect(res.error).toMatchObject({
      code: "UNPROCESSABLE",
      details: [{ field: "page_count", issue: "is 101, above the BASIC plan limit of 100" }],
    });
    expect(res.error.message).toContain("The PDF has 101 pages; the BASIC plan allows at most 100 pages");
  });

  test("PRO has the same 100-page limit", async () => {
    const res = await ask("/from-html", { html: pagedHtml(101) }, "PRO");
    expect(res.status).toBe(422);
    expect(res.error.details?.[0].issue).toBe("is 101, above the PRO plan limit of 100");
  });

  test("ULTRA renders 1,000 pages and refuses 1,001", async () => {
    const atLimit = await post("/from-html", { html: pagedHtml(1000), timeout_ms: 60000 }, "ULTRA");
    expect(atLimit.statusCode).toBe(200);
    expect(atLimit.headers["x-page-count"]).toBe("1000");
    expect(atLimit.headers["x-page-limit"]).toBe("1000");
    // The count read from Chromium's page tree (several levels deep at 1,000 pages) agrees with pdfinfo.
    expect(pdfInfo(pdfBytes(atLimit)).pages).toBe(1000);
    const over = await ask("/from-html", { html: pagedHtml(1001), timeout_ms: 60000 }, "ULTRA");
    expect(over.status).toBe(422);
    expect(over.error.details?.[0].issue).toBe("is 1001, above the ULTRA plan limit of 1000");
  }, 150_000);

  test("MEGA has the 1,000-page limit too", async () => {
    const res = await ask("/from-html", { html: pagedHtml(101) }, "MEGA", "?response=json");
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ page_count: 101, page_limit: 1000 });
  });
});

describe("documentation", () => {
  test("/openapi.json describes the four endpoints with their bounds", async () => {
    const res = await svc.started.app.inject({ method: "GET", url: "/openapi.json" });
    expect(res.statusCode).toBe(200);
    const spec = res.json();
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(["/from-html", "/from-markdown", "/from-url", "/merge"]));
    const body = spec.paths["/from-html"].post.requestBody.content["application/json"].schema;
    expect(body.properties.html.maxLength).toBe(5_000_000);
    expect(body.properties.timeout_ms).toMatchObject({ minimum: 1000, maximum: 60000, default: 30000 });
  });
});

describe("input bounds", () => {
  test("html at 5,000,000 characters renders; one more is refused", async () => {
    const head = html("<p>Edge of the html limit</p>");
    const padded = head + `<!--${"x".repeat(5_000_000 - head.length - 7)}-->`;
    expect(padded.length).toBe(5_000_000);
    const atLimit = await post("/from-html", { html: padded });
    expect(atLimit.statusCode).toBe(200);
    expect(pageTexts(pdfBytes(atLimit))[0]).toContain("Edge of the html limit");
    expectInvalid(await ask("/from-html", { html: padded + " " }), "html", "must be at most 5000000 characters long");
  });

  test("html must not be empty", async () => {
    expectInvalid(await ask("/from-html", { html: "" }), "html", "must not be empty");
    expectInvalid(await ask("/from-html", {}), "html", "is required");
  });

  test("markdown over 2,000,000 characters is refused", async () => {
    expectInvalid(await ask("/from-markdown", { markdown: "a".repeat(2_000_001) }), "markdown", "must be at most 2000000 characters long");
  });

  test("css, header_html and footer_html are bounded", async () => {
    expectInvalid(await ask("/from-html", { html: "<p>x</p>", css: "a".repeat(500_001) }), "css", "must be at most 500000 characters long");
    expectInvalid(await ask("/from-html", { html: "<p>x</p>", header_html: "a".repeat(20_001) }), "header_html", "must be at most 20000 characters long");
    expectInvalid(await ask("/from-html", { html: "<p>x</p>", footer_html: "a".repeat(20_001) }), "footer_html", "must be at most 20000 characters long");
  });

  test("every option at its upper bound renders", async () => {
    const res = await ask(
      "/from-html",
      {
        html: html("<p>All bounds</p>"),
        watermark_text: "W".repeat(100),
        watermark_opacity: 1,
        scale: 2,
        margin: { left: "100mm", top: "100mm" },
        title: "T".repeat(300),
        filename: `${"f".repeat(196)}.pdf`,
        timeout_ms: 60000,
        allowed_origins: Array.from({ length: 20 }, (_, i) => `https://cdn${i}.example.com`),
        header_html: "h".repeat(20_000),
        footer_html: "f".repeat(20_000),
      },
      "MEGA",
      "?response=json",
    );
    expect(res.status).toBe(200);
    expect(res.data.filename).toBe(`${"f".repeat(196)}.pdf`);
    expect(res.data.title).toBe("T".repeat(300));
  });

  test("every option at its lower bound renders", async () => {
    const res = await post("/from-html", {
      html: html("<p>Lower bounds</p>"),
      watermark_text: "W",
      watermark_opacity: 0.05,
      scale: 0.1,
      margin: "0",
      timeout_ms: 60000,
      filename: "f",
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-disposition"]).toContain('filename="f.pdf"');
  });

  test("one past each bound is refused, naming the field and the bound", async () => {
    const base = { html: "<p>x</p>" };
    expectInvalid(await ask("/from-html", { ...base, watermark_text: "W".repeat(101) }), "watermark_text", "must be at most 100 characters long");
    expectInvalid(await ask("/from-html", { ...base, watermark_opacity: 0.04 }), "watermark_opacity", "must be at least 0.05");
    expectInvalid(await ask("/from-html", { ...base, watermark_opacity: 1.01 }), "watermark_opacity", "must be at most 1");
    expectInvalid(await ask("/from-html", { ...base, scale: 2.01 }), "scale", "must be at most 2");
    expectInvalid(await ask("/from-html", { ...base, scale: 0.09 }), "scale", "must be at least 0.1");
    expectInvalid(await ask("/from-html", { ...base, timeout_ms: 60001 }), "timeout_ms", "must be at most 60000");
    expectInvalid(await ask("/from-html", { ...base, timeout_ms: 999 }), "timeout_ms", "must be at least 1000");
    expectInvalid(await ask("/from-html", { ...base, title: "T".repeat(301) }), "title", "must be at most 300 characters long");
    expectInvalid(await ask("/from-html", { ...base, filename: "f".repeat(201) }), "filename", "must be at most 200 characters long");
    const origins = Array.from({ length: 21 }, (_, i) => `https://cdn${i}.example.com`);
    expectInvalid(await ask("/from-html", { ...base, allowed_origins: origins }), "allowed_origins", "must have at most 20 items");
  });

  test("margins are bounded at 100mm per side and must leave room for content", async () => {
    expectInvalid(await ask("/from-html", { html: "<p>x</p>", margin: "101mm" }), "margin", "must be at most 100mm");
    expectInvalid(await ask("/from-html", { html: "<p>x</p>", margin: { top: "4in" } }), "margin.top", "must be at most 100mm");
    expectInvalid(await ask("/from-html", { html: "<p>x</p>", margin: "100mm" }), "margin", "left + right must leave at least 20mm of the page width");
    const bad = await ask("/from-html", { html: "<p>x</p>", margin: "2 furlongs" });
    expect(bad.status).toBe(400);
    expect(bad.error.details?.[0].field).toBe("margin");
  });

  test("enumerations and formats are checked", async () => {
    const base = { html: "<p>x</p>" };
    expectInvalid(await ask("/from-html", { ...base, page_size: "A5" }), "page_size", "must be one of: A4, Letter, Legal");
    expectInvalid(await ask("/from-html", { ...base, orientation: "sideways" }), "orientation", "must be one of: portrait, landscape");
    const filename = await ask("/from-html", { ...base, filename: "../etc/passwd" });
    expect(filename.status).toBe(400);
    expect(filename.error.details?.[0].field).toBe("filename");
    const lang = await ask("/from-html", { ...base, lang: "english!" });
    expect(lang.error.details?.[0].field).toBe("lang");
    const origin = await ask("/from-html", { ...base, allowed_origins: ["ftp://files.example.com"] });
    expect(origin.error.details?.[0].field).toBe("allowed_origins[0]");
    const response = await ask("/from-html", base, "MEGA", "?response=xml");
    expectInvalid(response, "response", "must be one of: pdf, json");
  });
});
