import { describe, expect, it } from "vitest";
import { sentenceProblem } from "@apiplat/testing";
import { emailUnderTest } from "./helpers.js";

/** Hostile templates: bounded when saved, budgeted when rendered, never half-sent. */

const email = emailUnderTest();

const call = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  email.started.app.inject({ method, url, headers: email.caller.headers, ...(payload ? { payload } : {}) });

const nested = (depth: number, inner = "") => "{{#a}}".repeat(depth) + inner + "{{/a}}".repeat(depth);

async function messageCount(): Promise<number> {
  const res = await call("GET", "/messages?limit=100");
  return res.json().data.messages.length;
}

describe("template limits when saved", () => {
  it("refuses the exponential template of the attack ({{#a}} x24) with a 400 naming the nesting bound", async () => {
    const res = await call("POST", "/templates", { name: "attack", subject: "x", html: nested(24) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([{ field: "html", issue: "has sections nested 24 deep; sections may be nested at most 16 deep" }]);
  });

  it("answers a 400, never a 500, for sections nested 3,000 deep, in every part", async () => {
    const html = await call("POST", "/templates", { name: "deep", subject: "x", html: nested(3000) });
    expect(html.statusCode).toBe(400);
    expect(html.json().error.details).toEqual([{ field: "html", issue: "has sections nested 3,000 deep; sections may be nested at most 16 deep" }]);
    const text = await call("POST", "/templates", { name: "deep", subject: "x", html: "x", text: nested(3000) });
    expect(text.json().error.details).toEqual([{ field: "text", issue: "has sections nested 3,000 deep; sections may be nested at most 16 deep" }]);
    expect(html.json().error.message).toBe("html has sections nested 3,000 deep; sections may be nested at most 16 deep.");
    expect(sentenceProblem(html.json())).toBeNull();
  });

  it("takes sections nested exactly 16 deep and refuses 17, on POST and PUT", async () => {
    expect((await call("POST", "/templates", { name: "depth", subject: "x", html: nested(16) })).statusCode).toBe(201);
    const over = await call("PUT", "/templates/depth", { subject: "x", html: nested(17) });
    expect(over.statusCode).toBe(400);
    expect(over.json().error.details).toEqual([{ field: "html", issue: "has sections nested 17 deep; sections may be nested at most 16 deep" }]);
  });

  it("takes exactly 10,000 tags and refuses 10,001, naming the count and the bound", async () => {
    expect((await call("POST", "/templates", { name: "tags", subject: "x", html: "{{a}}".repeat(10_000) })).statusCode).toBe(201);
    const over = await call("PUT", "/templates/tags", { subject: "x", html: "{{a}}".repeat(9_999) + "{{#b}}{{/b}}" });
    expect(over.statusCode).toBe(400);
    expect(over.json().error.details).toEqual([
      { field: "html", issue: "has 10,001 tags; a template part may have at most 10,000 (a section's opening and closing tags count as two)" },
    ]);
  });

  it("takes a part of exactly 512 KiB and refuses one character more", async () => {
    const limit = 512 * 1024;
    expect((await call("POST", "/templates", { name: "size", subject: "x", html: "x".repeat(limit) })).statusCode).toBe(201);
    const over = await call("PUT", "/templates/size", { subject: "x", html: "x".repeat(limit), text: "y".repeat(limit + 1) });
    expect(over.statusCode).toBe(400);
    expect(over.json().error.details).toEqual([{ field: "text", issue: expect.stringContaining(String(limit)) }]);
  });

  it("refuses a variable name longer than 200 characters", async () => {
    expect((await call("POST", "/templates", { name: "names", subject: "x", html: `{{${"a".repeat(200)}}}` })).statusCode).toBe(201);
    const over = await call("PUT", "/templates/names", { subject: `{{${"a".repeat(201)}}}`, html: "x" });
    expect(over.json().error.details).toEqual([{ field: "subject", issue: "has a tag name of 201 characters; a name may have at most 200" }]);
  });
});

describe("render budget", () => {
  it("renders 16 nested sections over a two-item list (131,070 passes) within the budget", async () => {
    const res = await call("POST", "/templates/depth/render", { variables: { a: [1, 2] } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ subject: "x", html: "", text: "" });
  });

  it("refuses the same template over a three-item list (43 million passes) with a 422 naming the budget", async () => {
    const began = Date.now();
    const res = await call("POST", "/templates/depth/render", { variables: { a: [1, 2, 3] } });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details).toEqual([
      {
        field: "variables",
        issue: "take the template depth over its render budget of 250,000 steps (each tag and each pass through a section is a step)",
      },
    ]);
    expect(Date.now() - began).toBeLessThan(5_000);
  });

  // Steps: the subject (one token) costs 2, the HTML's top level 2, each pass through {{#a}}x{{/a}} 2.
  it("takes a rendering of exactly 250,000 steps and refuses one step more", async () => {
    await call("POST", "/templates", { name: "steps", subject: "s", html: "{{#a}}x{{/a}}" });
    const atBudget = await call("POST", "/templates/steps/render", { variables: { a: Array(124_998).fill(0) } });
    expect(atBudget.statusCode).toBe(200);
    expect(atBudget.json().data.html).toBe("x".repeat(124_998));
    const over = await call("POST", "/templates/steps/render", { variables: { a: Array(124_999).fill(0) } });
    expect(over.statusCode).toBe(422);
  });

  it("takes exactly 5 MiB of output across the parts and refuses one character more", async () => {
    await call("POST", "/templates", { name: "output", subject: "s", html: "{{{v}}}" });
    const limit = 5 * 1024 * 1024;
    const atBudget = await call("POST", "/templates/output/render", { variables: { v: "x".repeat(limit - 1) } });
    expect(atBudget.statusCode).toBe(200);
    expect(atBudget.json().data.html.length).toBe(limit - 1);
    const over = await call("POST", "/templates/output/render", { variables: { v: "x".repeat(limit) } });
    expect(over.statusCode).toBe(422);
    expect(over.json().error.details[0].issue).toBe(
      "take the template output over its output budget of 5,242,880 characters (5 MiB), the most one message may carry",
    );
  });

  it("refuses a send over the budget before accepting it: no message is stored or sent", async () => {
    const before = await messageCount();
    const res = await call("POST", "/send/template", { template: "depth", to: "ada@example.com", variables: { a: [1, 2, 3] } });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe("UNPROCESSABLE");
    expect(await messageCount()).toBe(before);
    expect(email.capture.messages.length).toBe(0);
  });
});

describe("/send/template content", () => {
  it("refuses inline subject, html, body and text with a 400 naming each field", async () => {
    await call("POST", "/templates", { name: "hello", subject: "Hi {{name}}", html: "<p>Hi {{name}}</p>" });
    const res = await call("POST", "/send/template", { template: "hello", to: "ada@example.com", variables: { name: "Ada" }, html: "<p>mine</p>" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([
      {
        field: "html",
        issue: "is not accepted here: the saved template gives the content (change it with PUT /templates/{name}, or send your own content with POST /send)",
      },
    ]);
    const all = await call("POST", "/send/template", {
      template: "hello",
      to: "ada@example.com",
      variables: { name: "Ada" },
      subject: "s",
      body: "b",
      text: "t",
    });
    expect(all.json().error.details.map((d: { field: string }) => d.field)).toEqual(["subject", "body", "text"]);
    expect(sentenceProblem(all.json())).toBeNull();
  });
});

describe("template versions", () => {
  it("keeps at most 50 versions: the 51st is a 409 naming the cap until an old version is deleted", async () => {
    expect((await call("POST", "/templates", { name: "versions", subject: "v1", html: "x" })).statusCode).toBe(201);
    for (let v = 2; v <= 50; v++) {
      const res = await call("PUT", "/templates/versions", { subject: `v${v}`, html: "x" });
      expect(res.json().data.version).toBe(v);
    }
    const over = await call("PUT", "/templates/versions", { subject: "v51", html: "x" });
    expect(over.statusCode).toBe(409);
    expect(over.json().error.details).toEqual([{ field: "name", issue: "has 50 versions already, the most one template may keep" }]);
    expect(over.json().error.message).toContain("DELETE /templates/versions?version=N");

    expect((await call("DELETE", "/templates/versions?version=1")).statusCode).toBe(204);
    expect((await call("GET", "/templates/versions?version=1")).statusCode).toBe(404);
    expect((await call("DELETE", "/templates/versions?version=1")).statusCode).toBe(404);
    const next = await call("PUT", "/templates/versions", { subject: "v51", html: "x" });
    expect(next.statusCode).toBe(200);
    expect(next.json().data.version).toBe(51);
    expect((await call("PUT", "/templates/versions", { subject: "v52", html: "x" })).statusCode).toBe(409);
  });
});
