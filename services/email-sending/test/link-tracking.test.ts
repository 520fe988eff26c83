import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestSubscriber } from "@apiplat/testing";
import { CaptureServer, parse, startEmail, waitForMessage, type EmailService } from "./helpers.js";

/** Click tracking under hostile HTML: a linear rewriter, a cap on tracked links, and flagged destinations refused. */

const BASE = "https://mail.example.test";
const HTML_LIMIT = 5 * 1024 * 1024;

let capture: CaptureServer;
let started: EmailService;
let caller: TestSubscriber;
let safeBrowsing: Server;
const flaggedBySafeBrowsing = "https://phish.example.org/login";

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "email-blocklist-"));
  const blocklist = path.join(dir, "hosts.txt");
  writeFileSync(blocklist, "# test feed\n0.0.0.0 malware.example.net\n");
  safeBrowsing = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const entries = (JSON.parse(body) as { threatInfo: { threatEntries: { url: string }[] } }).threatInfo.threatEntries;
      const matches = entries.filter((e) => e.url === flaggedBySafeBrowsing).map((e) => ({ threatType: "SOCIAL_ENGINEERING", threat: { url: e.url } }));
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(matches.length > 0 ? { matches } : {}));
    });
  });
  await new Promise<void>((resolve) => safeBrowsing.listen(0, "127.0.0.1", resolve));
  capture = new CaptureServer();
  await capture.start();
  started = await startEmail(capture, {
    publicBaseUrl: BASE,
    blocklistFiles: [blocklist],
    safeBrowsingApiKey: "test-key",
    safeBrowsingEndpoint: `http://127.0.0.1:${(safeBrowsing.address() as AddressInfo).port}/v4/threatMatches:find`,
  });
  caller = await started.subscribe("PRO");
});
afterAll(async () => {
  await started.close();
  await capture.stop();
  await new Promise((resolve) => safeBrowsing.close(resolve));
});

const send = (payload: object) => started.app.inject({ method: "POST", url: "/send", headers: caller.headers, payload });

async function deliveredHtml(payload: object): Promise<string> {
  const res = await send(payload);
  expect(res.statusCode, res.body.slice(0, 500)).toBe(202);
  const id = res.json().data.id as string;
  const captured = await capture.waitFor(capture.withEmailId(id), 30_000);
  await waitForMessage(started, caller.headers, id, (m) => m.status === "sent", 30_000);
  return String((await parse(captured.raw)).html);
}

const trackedCount = (html: string) => html.split(`href="${BASE}/t/c/`).length - 1;
const links = (n: number, marked = "") => Array.from({ length: n }, (_, i) => `<a ${marked}href="https://shop.example.com/p/${i}">${i}</a>`).join("");

describe("the link rewriter", () => {
  it("keeps the HTML byte for byte but for the tracked hrefs, and takes only the first of repeated hrefs", async () => {
    const html =
      "<p class=x><A HREF='https://shop.example.com/a?x=1&amp;y=2' class=btn>A</A> <a href=\"javascript:alert(1)\">j</a> " +
      '<a href="ftp://files.example.com/f">f</a> <a data-no-track href="https://shop.example.com/raw">r</a> ' +
      '<a href="https://shop.example.com/first" href="https://elsewhere.example.com/second">d</a>' +
      "<script>var s = '<a href=\"https://shop.example.com/in-script\">';</script></p>";
    const out = await deliveredHtml({ to: "reader@example.com", subject: "Links", html, track_clicks: true });
    const rewritten = out.replace(/https:\/\/mail\.example\.test\/t\/c\/[A-Za-z0-9_.-]+/g, "TRACKED");
    expect(rewritten).toBe(
      '<p class=x><A href="TRACKED" class=btn>A</A> <a href="javascript:alert(1)">j</a> ' +
        '<a href="ftp://files.example.com/f">f</a> <a data-no-track href="https://shop.example.com/raw">r</a> ' +
        '<a href="TRACKED" >d</a>' +
        "<script>var s = '<a href=\"https://shop.example.com/in-script\">';</script></p>",
    );
  });

  it("delivers the attack of 80,000 '<a ' with track_clicks unchanged (no complete tag, nothing to track)", async () => {
    const html = "<a ".repeat(80_000);
    const out = await deliveredHtml({ to: "reader@example.com", subject: "Attack", html, text: "t", track_clicks: true });
    expect(out).toBe(html);
  });

  it("accepts the worst shapes at the 5 MiB HTML limit and delivers them", async () => {
    const unclosedAttribute = '<a href="https://shop.example.com/' + "x".repeat(HTML_LIMIT - 34);
    const manyAttributes = "<a " + "h=1 ".repeat((HTML_LIMIT - 4) / 4) + ">";
    for (const html of ["<a ".repeat(Math.floor(HTML_LIMIT / 3)), unclosedAttribute, manyAttributes]) {
      expect(html.length).toBeLessThanOrEqual(HTML_LIMIT);
      const out = await deliveredHtml({ to: "reader@example.com", subject: "Worst", html, text: "t", track_clicks: true });
      expect(out.length).toBe(html.length);
    }
  }, 90_000);
});

describe("tracked links per message", () => {
  it("tracks exactly 1,000 links (links marked data-no-track do not count) and refuses 1,001 with a 422 naming the cap", async () => {
    const out = await deliveredHtml({ to: "reader@example.com", subject: "1000", html: links(1_000) + links(5, "data-no-track "), track_clicks: true });
    expect(trackedCount(out)).toBe(1_000);

    const over = await send({ to: "reader@example.com", subject: "1001", html: links(1_001), track_clicks: true });
    expect(over.statusCode).toBe(422);
    expect(over.json().error.details).toEqual([
      {
        field: "html",
        issue:
          "has more than 1,000 links to track; at most 1,000 links per message are tracked (mark the others data-no-track, or send with track_clicks false)",
      },
    ]);
    expect((await send({ to: "reader@example.com", subject: "untracked", html: links(1_001) })).statusCode).toBe(202);
  });

  it("refuses 5 MiB of links (about 150,000) at once, before anything is stored", async () => {
    const one = '<a href="https://l.example.com/">x</a>';
    const html = one.repeat(Math.floor(HTML_LIMIT / one.length));
    const res = await send({ to: "reader@example.com", subject: "flood", html, text: "t", track_clicks: true });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details[0].field).toBe("html");
  });

  it("refuses a tracked link longer than 2,048 characters or with credentials, naming the link", async () => {
    const long = `https://shop.example.com/${"x".repeat(2_100)}`;
    const res = await send({ to: "reader@example.com", subject: "long", html: `<a href="${long}">x</a>`, track_clicks: true });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details).toEqual([
      { field: "html", issue: `has a link that cannot be tracked (${long.slice(0, 200)}…): it must be at most 2048 characters once normalized` },
    ]);
    const credentials = await send({
      to: "reader@example.com",
      subject: "creds",
      html: '<a href="https://user:pw@bank.example.com/">x</a>',
      track_clicks: true,
    });
    expect(credentials.json().error.details).toEqual([
      { field: "html", issue: "has a link that cannot be tracked (https://user:pw@bank.example.com/): it must not contain credentials (user:password@)" },
    ]);
  });
});

describe("tracked destinations", () => {
  it("refuses a message whose tracked link is on the blocklist with a 422 naming the link; untracked it is not our redirect", async () => {
    const html = '<p><a href="https://shop.example.com/ok">ok</a> <a href="https://download.malware.example.net/x.exe">get</a></p>';
    const res = await send({ to: "reader@example.com", subject: "bad", html, track_clicks: true });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe("UNSAFE_URL");
    expect(res.json().error.details).toEqual([
      { field: "html", issue: "links to https://download.malware.example.net/x.exe, flagged as BLOCKLISTED_HOST by the blocklist" },
    ]);
    expect((await send({ to: "reader@example.com", subject: "bad", html })).statusCode).toBe(202);
  });

  it("refuses a tracked link Safe Browsing flags", async () => {
    const res = await send({ to: "reader@example.com", subject: "phish", html: `<a href="${flaggedBySafeBrowsing}">log in</a>`, track_clicks: true });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details).toEqual([
      { field: "html", issue: `links to ${flaggedBySafeBrowsing}, flagged as SOCIAL_ENGINEERING by Google Safe Browsing` },
    ]);
  });

  it("checks the links a template renders, too", async () => {
    await started.app.inject({
      method: "POST",
      url: "/templates",
      headers: caller.headers,
      payload: { name: "promo", subject: "Promo", html: '<a href="{{link}}">go</a>' },
    });
    const res = await started.app.inject({
      method: "POST",
      url: "/send/template",
      headers: caller.headers,
      payload: { template: "promo", to: "reader@example.com", track_clicks: true, variables: { link: "https://malware.example.net/" } },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details[0].issue).toBe("links to https://malware.example.net/, flagged as BLOCKLISTED_HOST by the blocklist");
  });
});
