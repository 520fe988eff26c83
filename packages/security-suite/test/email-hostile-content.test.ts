import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deployedService } from "@apiplat/deployment";
import type { ServiceApp } from "@apiplat/service-kit";
import { createTestPlatform, type TestPlatform } from "@apiplat/testing";

/**
 * Email content a hostile subscriber controls: templates that explode when rendered, HTML that stalls a link
 * rewriter, and tracked links that would launder a flagged destination through our host. The service is built as
 * production builds it (manifest, settings from the environment), delivering to its local sink on this machine.
 */

const BASE = "https://mail.example.test";
let platform: TestPlatform;
let app: ServiceApp;
let headers: Record<string, string>;
let outbox: string;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "email-hostile-"));
  outbox = path.join(dir, "outbox");
  writeFileSync(path.join(dir, "blocklist.txt"), "0.0.0.0 malware.example.net\n");
  platform = await createTestPlatform({
    env: {
      EMAIL_SECRET: "security-suite-secret-of-thirty-two-chars",
      EMAIL_INBOUND_PORT: "0",
      EMAIL_INBOUND_HOST: "127.0.0.1",
      EMAIL_OUTBOX_DIR: outbox,
      EMAIL_PUBLIC_BASE_URL: BASE,
      EMAIL_BLOCKLIST_FILES: path.join(dir, "blocklist.txt"),
      EMAIL_POLL_MS: "25",
    },
  });
  app = await (await deployedService("email-sending"))!.build(platform.deps);
  await app.ready();
  headers = (await platform.subscribe("email-sending", "MEGA")).headers;
});
afterAll(async () => {
  await app?.close();
  await platform?.close();
});

const post = (url: string, payload: object) => app.inject({ method: "POST", url, headers, payload });
const nested = (depth: number) => "{{#a}}".repeat(depth) + "{{/a}}".repeat(depth);

/** The raw message the local sink stored for `id`. */
async function delivered(id: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const files = existsSync(outbox) ? readdirSync(outbox, { withFileTypes: true }).filter((f) => f.isFile()) : [];
    for (const file of files) {
      const raw = readFileSync(path.join(outbox, file.name), "latin1");
      if (raw.includes(`X-Email-Id: ${id}`) || raw.includes(`X-Email-ID: ${id}`)) return raw;
    }
    if (Date.now() > deadline) throw new Error(`message ${id} never reached the sink`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("hostile templates", () => {
  it.each([
    ["sections nested 24 deep (exponential render)", nested(24), "html"],
    ["sections nested 3,000 deep (recursion)", nested(3000), "html"],
    ["10,001 tags", "{{a}}".repeat(10_001), "html"],
    ["a 201-character name", `{{${"n".repeat(201)}}}`, "html"],
    ["an unclosed section", "{{#a}}", "html"],
  ])("refuses %s when saved, with a 400 naming the part", async (_shape, html, field) => {
    const res = await post("/templates", { name: "hostile", subject: "s", html });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0].field).toBe(field);
  });

  it("refuses a rendering over its budget with a 422, for a preview and for a send (nothing stored)", async () => {
    expect((await post("/templates", { name: "amplify", subject: "s", html: nested(16) })).statusCode).toBe(201);
    expect((await post("/templates/amplify/render", { variables: { a: [1, 2, 3] } })).statusCode).toBe(422);
    const send = await post("/send/template", { template: "amplify", to: "reader@example.com", variables: { a: [1, 2, 3] } });
    expect(send.statusCode).toBe(422);
    const listed = await app.inject({ method: "GET", url: "/messages", headers });
    expect(listed.json().data.messages).toEqual([]);
  });

  it("refuses inline HTML on /send/template instead of dropping it", async () => {
    const res = await post("/send/template", { template: "amplify", to: "reader@example.com", variables: { a: [] }, html: "<p>mine</p>" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0].field).toBe("html");
  });
});

describe("hostile HTML with click tracking", () => {
  it("accepts and delivers 80,000 '<a ' unchanged", async () => {
    const html = "<a ".repeat(80_000);
    const res = await post("/send", { to: "reader@example.com", subject: "a", html, text: "t", track_clicks: true });
    expect(res.statusCode).toBe(202);
    expect(await delivered(res.json().data.id)).toContain("Content-Type: text/html");
  });

  it("refuses more than 1,000 tracked links and a tracked link on the blocklist (422 naming it)", async () => {
    const many = Array.from({ length: 1_001 }, (_, i) => `<a href="https://shop.example.com/${i}">x</a>`).join("");
    expect((await post("/send", { to: "reader@example.com", subject: "m", html: many, track_clicks: true })).statusCode).toBe(422);
    const flagged = await post("/send", {
      to: "reader@example.com",
      subject: "f",
      html: '<a href="https://get.malware.example.net/x">x</a>',
      track_clicks: true,
    });
    expect(flagged.statusCode).toBe(422);
    expect(flagged.json().error.details).toEqual([
      { field: "html", issue: "links to https://get.malware.example.net/x, flagged as BLOCKLISTED_HOST by the blocklist" },
    ]);
  });

  it("writes tracked links that redirect only to destinations the sender wrote, never to javascript: or data:", async () => {
    const html =
      '<a href="https://shop.example.com/a">a</a> <a href="javascript:alert(1)">j</a> <a href="data:text/html,x">d</a> ' +
      '<a href="https://shop.example.com/b" href="https://malware.example.net/">b</a>';
    const res = await post("/send", { to: "reader@example.com", subject: "l", html, track_clicks: true });
    expect(res.statusCode).toBe(202);
    const raw = await delivered(res.json().data.id);
    const body = Buffer.from(
      /Content-Type: text\/html[\s\S]*?\r\n\r\n([\s\S]*?)\r\n--/
        .exec(raw)![1]
        .replace(/=\r\n/g, "")
        .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
      "latin1",
    ).toString();
    const tracked = [...body.matchAll(/href="(https:\/\/mail\.example\.test\/t\/c\/[^"]+)"/g)].map((m) => m[1]);
    expect(tracked).toHaveLength(2);
    expect(body).toContain('href="javascript:alert(1)"');
    expect(body).not.toContain("malware.example.net");
    const targets = [];
    for (const link of tracked) {
      const click = await app.inject({
        method: "GET",
        url: link.slice(BASE.length),
        headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0" },
      });
      expect(click.statusCode).toBe(302);
      targets.push(click.headers.location);
    }
    expect(targets).toEqual(["https://shop.example.com/a", "https://shop.example.com/b"]);
  });
});
