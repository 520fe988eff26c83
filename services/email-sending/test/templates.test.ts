import { describe, expect, it } from "vitest";
import { emailUnderTest, parse, waitForMessage } from "./helpers.js";

const email = emailUnderTest();

const call = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object, headers = email.caller.headers) =>
  email.started.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

const welcome = {
  name: "welcome",
  subject: "Welcome, {{name}}!",
  html: "<p>Hello {{name}}, your plan is {{plan.name}}.</p>{{#coupon}}<p>Code: {{code}}</p>{{/coupon}}<div>{{{signature}}}</div>",
  text: "Hello {{name}} & welcome",
};

describe("templates", () => {
  it("saves version 1, lists the variables it needs, and versions each change", async () => {
    const created = await call("POST", "/templates", welcome);
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toMatchObject({ name: "welcome", version: 1, variables: ["name", "plan.name", "signature"] });
    expect((await call("POST", "/templates", welcome)).statusCode).toBe(409);

    const updated = await call("PUT", "/templates/welcome", { ...welcome, subject: "Hi {{name}}" });
    expect(updated.json().data).toMatchObject({ version: 2, subject: "Hi {{name}}" });
    expect((await call("GET", "/templates/welcome")).json().data.version).toBe(2);
    expect((await call("GET", "/templates/welcome?version=1")).json().data.subject).toBe("Welcome, {{name}}!");
    expect((await call("GET", "/templates")).json().data.templates.map((t: { name: string; version: number }) => [t.name, t.version])).toEqual([
      ["welcome", 2],
    ]);
    expect((await call("PUT", "/templates/missing", welcome)).statusCode).toBe(404);
  });

  it("renders a preview: {{x}} escaped in HTML, {{{x}}} raw, subject and text not HTML-escaped", async () => {
    const res = await call("POST", "/templates/welcome/render", {
      version: 1,
      variables: { name: "Ada <Lovelace> & Co", plan: { name: "PRO" }, coupon: { code: "SAVE10" }, signature: "<b>The team</b>" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      subject: "Welcome, Ada <Lovelace> & Co!",
      html: "<p>Hello Ada &lt;Lovelace&gt; &amp; Co, your plan is PRO.</p><p>Code: SAVE10</p><div><b>The team</b></div>",
      text: "Hello Ada <Lovelace> & Co & welcome",
    });
  });

  it("names every missing variable in a 400", async () => {
    const res = await call("POST", "/templates/welcome/render", { variables: { plan: {} } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([
      { field: "variables.name", issue: "is required by the template welcome" },
      { field: "variables.plan.name", issue: "is required by the template welcome" },
      { field: "variables.signature", issue: "is required by the template welcome" },
    ]);
  });

  it("takes a version up to the largest one a template can have (2147483647) and refuses one above it as a 400", async () => {
    const largest = await call("POST", "/templates/welcome/render", { version: 2_147_483_647, variables: { name: "A", plan: {}, signature: "" } });
    expect(largest.statusCode).toBe(404);
    const above = await call("POST", "/templates/welcome/render", { version: 2_147_483_648, variables: {} });
    expect(above.statusCode).toBe(400);
    expect(above.json().error.details).toEqual([{ field: "version", issue: expect.stringContaining("2147483647") }]);
    expect((await call("GET", "/templates/welcome?version=2147483648")).statusCode).toBe(400);
  });

  it("refuses a template that does not parse, naming the part", async () => {
    const res = await call("POST", "/templates", { name: "broken", subject: "x", html: "{{#open}}never closed" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0].field).toBe("html");
    expect((await call("POST", "/templates", { name: "Bad Name", subject: "x", html: "x" })).statusCode).toBe(400);
  });

  it("sends from a template (no inline HTML) and records which version", async () => {
    const res = await call("POST", "/send/template", {
      template: "welcome",
      to: "ada@example.com",
      variables: { name: "Ada", plan: { name: "ULTRA" }, signature: "<i>us</i>" },
    });
    expect(res.statusCode).toBe(202);
    const id = res.json().data.id;
    const mail = await parse((await email.capture.waitFor(email.capture.withEmailId(id))).raw);
    expect(mail.subject).toBe("Hi Ada");
    expect(mail.html).toBe("<p>Hello Ada, your plan is ULTRA.</p><div><i>us</i></div>");
    expect(mail.text?.trim()).toBe("Hello Ada & welcome");
    const message = await waitForMessage(email.started, email.caller.headers, id, (m) => m.status === "sent");
    expect(message).toMatchObject({ template: { name: "welcome", version: 2 } });

    const inline = await call("POST", "/send/template", { template: "welcome", to: "ada@example.com", html: "<p>x</p>" });
    expect(inline.statusCode).toBe(400);
    const missing = await call("POST", "/send/template", { template: "welcome", to: "ada@example.com", variables: { plan: { name: "x" } } });
    expect(missing.json().error.details.map((d: { field: string }) => d.field)).toEqual(["variables.name", "variables.signature"]);
    expect((await call("POST", "/send/template", { template: "nope", to: "ada@example.com" })).statusCode).toBe(404);
  });

  it("keeps templates per account and deletes every version", async () => {
    const other = await email.started.subscribe("PRO");
    expect((await call("GET", "/templates/welcome", undefined, other.headers)).statusCode).toBe(404);
    await call("POST", "/templates", { name: "gone", subject: "x", html: "x" });
    expect((await call("DELETE", "/templates/gone")).statusCode).toBe(204);
    expect((await call("GET", "/templates/gone")).statusCode).toBe(404);
    expect((await call("DELETE", "/templates/gone")).statusCode).toBe(404);
  });
});
