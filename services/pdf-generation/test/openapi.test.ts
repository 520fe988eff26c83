import { afterAll, beforeAll, expect, test } from "vitest";
import { startService, type StartedService } from "@apiplat/testing";
import pdfService from "../src/service.js";
import { TEST_SETTINGS } from "./helpers.js";

let started: StartedService;
beforeAll(async () => {
  started = await startService(pdfService, { settings: TEST_SETTINGS });
});
afterAll(async () => {
  await started?.close();
});

test("/openapi.json says every endpoint answers 200 with the PDF, or the JSON envelope with ?response=json", async () => {
  const document = (await started.app.inject({ method: "GET", url: "/openapi.json" })).json();
  for (const path of ["/from-html", "/from-markdown", "/from-url", "/merge"]) {
    const operation = document.paths[path].post;
    expect(operation.summary, path).toEqual(expect.any(String));
    expect(operation.description, path).toEqual(expect.any(String));
    const success = Object.keys(operation.responses).filter((status) => status.startsWith("2"));
    expect(success, path).toEqual(["200"]);
    const content = operation.responses["200"].content;
    expect(Object.keys(content), path).toEqual(["application/pdf", "application/json"]);
    expect(content["application/pdf"].schema).toMatchObject({ type: "string", format: "binary" });
    expect(content["application/json"].schema.properties.data.properties.content_base64.type).toBe("string");
  }
});
