import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestSubscriber } from "@apiplat/testing";
import { addContact, CaptureServer, parse, startEmail, waitForMessage, type EmailService } from "./helpers.js";

/** Marketing mail (opt-in, unsubscribe), open and click tracking: the paths a reader reaches without a key. */

let capture: CaptureServer;
let started: EmailService;
let caller: TestSubscriber;
const HUMAN = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

beforeAll(async () => {
  capture = new CaptureServer();
  await capture.start();
  started = await startEmail(capture, { publicBaseUrl: "https://mail.example.test" });
  caller = await started.subscribe("PRO");
});
afterAll(async () => {
  await started.close();
  await capture.stop();
});

const send = (payload: object, headers = caller.headers) => started.app.inject({ method: "POST", url: "/send", headers, payload });
/** The URL in the raw List-Unsubscribe header (folded lines joined). */
function listUnsubscribe(raw: Buffer): string {
  return /^List-Unsubscribe:\s*<([^>]+)>/im.exec(raw.toString().replace(/\r\n[ \t]+/g, ""))![1];
}
/** The public path of a link the service wrote into a message. */
const pathOf = (url: string) => url.replace("https://mail.example.test", "");

async function deliveredMail(payload: object) {
  const res = await send(payload);
  expect(res.statusCode, res.body).toBe(202);
  const id = res.json().data.id as string;
  const captured = await capture.waitFor(capture.withEmailId(id));
  await waitForMessage(started, caller.headers, id, (m) => m.status === "sent");
  return { id, captured, mail: await parse(captured.raw) };
}

describe("marketing mail", () => {
  it("goes only to opted-in recipients; others are refused with the reason", async () => {
    const res = await send({ to: "stranger@example.com", subject: "Sale", html: "<p>Sale</p>", category: "marketing" });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details[0].issue).toBe("stranger@example.com: not on the account's opt-in list (marketing mail needs consent: POST /contacts)");
    const several = await send({ to: ["a@example.com", "b@example.com"], subject: "Sale", html: "<p>Sale</p>", category: "marketing" });
    expect(several.statusCode).toBe(400);
  });

  it("carries a visible unsubscribe link and RFC 8058 headers, signed by DKIM; one-click and link work without login, at once, idempotently", async () => {
    expect((await addContact(started, caller.headers, "Reader@Example.com")).statusCode).toBe(201);
    const { id, captured, mail } = await deliveredMail({
      to: "reader@example.com",
      subject: "News",
      html: "<html><body><p>News</p></body></html>",
      category: "marketing",
    });
    const header = { url: listUnsubscribe(captured.raw) };
    // Opaque: 64 hex digits (message, recipient tag, HMAC), no account id, no readable payload.
    expect(header.url).toMatch(/^https:\/\/mail\.example\.test\/unsubscribe\/[0-9a-f]{64}$/);
    expect(header.url).not.toContain(caller.accountId);
    expect(captured.raw.toString()).toContain("\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n");
    expect(mail.html).toContain(`<a href="${header.url}" data-no-track>Unsubscribe</a></p></body>`);
    expect(mail.text).toContain(`Unsubscribe: ${header.url}`);
    expect(/h=[^;]*list-unsubscribe-post/i.test(captured.raw.toString().replace(/\r\n\s+/g, " "))).toBe(true);

    const oneClick = () =>
      started.app.inject({
        method: "POST",
        url: pathOf(header.url),
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: "List-Unsubscribe=One-Click",
      });
    expect((await oneClick()).statusCode).toBe(200);
    expect((await oneClick()).statusCode).toBe(200);
    const page = await started.app.inject({ method: "GET", url: pathOf(header.url) });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.body).toContain("You are unsubscribed");

    const list = (await started.app.inject({ method: "GET", url: "/suppressions", headers: caller.headers })).json().data.suppressions;
    expect(list).toEqual([expect.objectContaining({ email: "reader@example.com", reason: "unsubscribed", message_id: id })]);
    const message = await waitForMessage(started, caller.headers, id, () => true);
    expect(message.events.filter((e: { type: string }) => e.type === "unsubscribed")).toHaveLength(1);
    expect(message.status).toBe("sent");

    const again = await send({ to: "reader@example.com", subject: "More", html: "<p>x</p>", category: "marketing" });
    expect(again.json().error.details[0].issue).toBe("reader@example.com: suppressed (unsubscribed)");
    // An unsubscribe stops marketing only: a receipt still goes out.
    expect((await send({ to: "reader@example.com", subject: "Receipt", html: "<p>x</p>" })).statusCode).toBe(202);
  });

  it("refuses an altered unsubscribe token", async () => {
    await addContact(started, caller.headers, "other-reader@example.com");
    const { captured } = await deliveredMail({ to: "other-reader@example.com", subject: "News", html: "<p>News</p>", category: "marketing" });
    const url = listUnsubscribe(captured.raw);
    const path = pathOf(url);
    const forged = `${path.slice(0, -1)}${path.endsWith("0") ? "1" : "0"}`;
    const res = await started.app.inject({
      method: "POST",
      url: forged,
      payload: "List-Unsubscribe=One-Click",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.statusCode).toBe(404);
  });
});

describe("who may lift a suppression", () => {
  const api = (method: "GET" | "POST" | "DELETE", url: string, payload?: object) => started.app.inject({ method, url, headers: caller.headers, payload });
  const marketing = (to: string) => send({ to, subject: "News", html: "<p>News</p>", category: "marketing" });

  async function unsubscribed(email: string) {
    expect((await addContact(started, caller.headers, email)).statusCode).toBe(201);
    const { captured } = await deliveredMail({ to: email, subject: "News", html: "<p>News</p>", category: "marketing" });
    const page = await started.app.inject({ method: "GET", url: pathOf(listUnsubscribe(captured.raw)) });
    expect(page.statusCode).toBe(200);
    return page.body;
  }

  it("not the sender: DELETE of an unsubscribe is a 409 naming why, and the next marketing send is still refused", async () => {
    await unsubscribed("kept-out@example.com");
    const del = await api("DELETE", "/suppressions/kept-out@example.com");
    expect(del.statusCode).toBe(409);
    expect(del.json().error.message).toBe(
      "kept-out@example.com is suppressed because the recipient unsubscribed: only the recipient can lift that (the re-subscribe link on the unsubscribe page), or a new consent recorded with POST /suppressions/kept-out@example.com/consent naming its source and time.",
    );
    expect(del.json().error.details).toEqual([{ field: "email", issue: "is suppressed by the recipient (unsubscribed), not by a bounce" }]);
    expect((await marketing("kept-out@example.com")).json().error.details[0].issue).toBe("kept-out@example.com: suppressed (unsubscribed)");
  });

  it("the recipient, with the re-subscribe button on the unsubscribe page (opening the link changes nothing)", async () => {
    const page = await unsubscribed("changed-mind@example.com");
    const action = /<form method="post" action="([^"]+)">/.exec(page)?.[1];
    expect(action).toMatch(/^https:\/\/mail\.example\.test\/resubscribe\/[0-9a-f]{64}$/);
    const confirm = await started.app.inject({ method: "GET", url: pathOf(action!) });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('<button type="submit">Re-subscribe</button>');
    expect((await marketing("changed-mind@example.com")).statusCode).toBe(422);

    const altered = `${pathOf(action!).slice(0, -1)}${action!.endsWith("0") ? "1" : "0"}`;
    expect((await started.app.inject({ method: "POST", url: altered })).statusCode).toBe(404);

    const done = await started.app.inject({ method: "POST", url: pathOf(action!) });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain("You are subscribed again");
    expect((await marketing("changed-mind@example.com")).statusCode).toBe(202);
  });

  it("or a new consent recorded with its source and time, given after the unsubscribe", async () => {
    await unsubscribed("signed-up-again@example.com");
    const suppressedAt = (await api("GET", "/suppressions?reason=unsubscribed"))
      .json()
      .data.suppressions.find((s: { email: string }) => s.email === "signed-up-again@example.com").created_at as string;

    const stale = await api("POST", "/suppressions/signed-up-again@example.com/consent", { source: "signup form", consented_at: "2026-01-02T03:04:05Z" });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().error.details).toEqual([
      {
        field: "consented_at",
        issue: `must be after the address was suppressed (${suppressedAt}): a consent given before the unsubscribe does not outlive it`,
      },
    ]);
    const missing = await api("POST", "/suppressions/signed-up-again@example.com/consent", { consented_at: new Date().toISOString() });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details[0].field).toBe("source");

    const consentedAt = new Date(Date.parse(suppressedAt) + 1_000).toISOString();
    const lifted = await api("POST", "/suppressions/signed-up-again@example.com/consent", {
      source: "double opt-in at example.com/join",
      consented_at: consentedAt,
    });
    expect(lifted.statusCode).toBe(200);
    expect(lifted.json().data).toEqual({
      email: "signed-up-again@example.com",
      lifted: "unsubscribed",
      source: "double opt-in at example.com/join",
      consented_at: consentedAt,
    });
    const contact = (await api("GET", "/contacts/signed-up-again@example.com")).json().data;
    expect(contact).toMatchObject({ consent_at: consentedAt, source: "double opt-in at example.com/join" });
    expect((await marketing("signed-up-again@example.com")).statusCode).toBe(202);
    const { rows } = await started.platform.deps.db.query("SELECT lifted_reason, lifted_by, source FROM email_consents WHERE email = $1", [
      "signed-up-again@example.com",
    ]);
    expect(rows).toEqual([{ lifted_reason: "unsubscribed", lifted_by: "sender", source: "double opt-in at example.com/join" }]);

    expect((await api("POST", "/suppressions/nobody@example.com/consent", { source: "x", consented_at: consentedAt })).statusCode).toBe(404);
  });

  it("the sender's own manual suppression: added with POST, removed with DELETE; a consent is not what lifts it", async () => {
    const added = await api("POST", "/suppressions", { email: "Former@Example.com" });
    expect(added.statusCode).toBe(201);
    expect(added.json().data).toMatchObject({ email: "former@example.com", reason: "manual", detail: "added by the sender", message_id: null });
    expect((await send({ to: "former@example.com", subject: "x", html: "<p>x</p>" })).statusCode).toBe(422);
    const consent = await api("POST", "/suppressions/former@example.com/consent", { source: "x", consented_at: new Date().toISOString() });
    expect(consent.statusCode).toBe(409);
    expect(consent.json().error.details).toEqual([{ field: "email", issue: "is suppressed by your own manual entry, which needs no consent" }]);
    expect((await api("DELETE", "/suppressions/former@example.com")).statusCode).toBe(204);
    expect((await send({ to: "former@example.com", subject: "x", html: "<p>x</p>" })).statusCode).toBe(202);
  });
});

describe("tracking", () => {
  it("rewrites http(s) links to signed redirects that record the click; mailto and anchors stay", async () => {
    const html =
      '<p><a href="https://shop.example.com/item?id=7&amp;ref=mail">Item</a> <a href="mailto:help@example.com">Mail us</a> <a href="#top">Top</a></p>';
    const { id, mail } = await deliveredMail({ to: "clicker@example.com", subject: "Links", html, track_clicks: true });
    const hrefs = [...String(mail.html).matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
    expect(hrefs[0]).toMatch(/^https:\/\/mail\.example\.test\/t\/c\//);
    expect(hrefs.slice(1)).toEqual(["mailto:help@example.com", "#top"]);

    const click = await started.app.inject({ method: "GET", url: pathOf(hrefs[0]), headers: { "user-agent": HUMAN } });
    expect(click.statusCode).toBe(302);
    expect(click.headers.location).toBe("https://shop.example.com/item?id=7&ref=mail");
    const message = await waitForMessage(started, caller.headers, id, (m) => m.status === "clicked");
    expect(message.events.at(-1)).toMatchObject({
      type: "clicked",
      recipient: "clicker@example.com",
      detail: { url: "https://shop.example.com/item?id=7&ref=mail", machine_click: false },
    });

    const token = pathOf(hrefs[0]).slice("/t/c/".length);
    const [payload, mac] = token.split(".");
    const otherTarget = Buffer.from(JSON.stringify({ m: id, u: "https://evil.example.net/" })).toString("base64url");
    for (const forged of [`${otherTarget}.${mac}`, `${payload}.${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`, payload]) {
      const res = await started.app.inject({ method: "GET", url: `/t/c/${forged}` });
      expect(res.statusCode).toBe(404);
      expect(res.headers.location).toBeUndefined();
    }
  });

  it("adds an open pixel that records opens, flagging privacy-proxy prefetches as machine opens", async () => {
    const { id, mail } = await deliveredMail({ to: "opener@example.com", subject: "Open", html: "<html><body><p>Hi</p></body></html>", track_opens: true });
    const pixel = /<img src="(https:\/\/mail\.example\.test\/t\/o\/[^"]+\.gif)"/.exec(String(mail.html))![1];
    expect(mail.html).toMatch(/\.gif" width="1" height="1" alt="" style="[^"]*" \/><\/body>/);

    const prefetch = await started.app.inject({ method: "GET", url: pathOf(pixel), headers: { "user-agent": "Mozilla/5.0" } });
    expect(prefetch.statusCode).toBe(200);
    expect(prefetch.headers["content-type"]).toBe("image/gif");
    expect(prefetch.rawPayload.length).toBe(43);
    let message = await waitForMessage(started, caller.headers, id, (m) => m.events.some((e) => e.type === "opened"));
    expect(message.status).toBe("sent");
    expect(message.events.at(-1).detail).toMatchObject({ machine_open: true, machine: "apple_mail_privacy_protection" });

    await started.app.inject({ method: "GET", url: pathOf(pixel), headers: { "user-agent": HUMAN } });
    message = await waitForMessage(started, caller.headers, id, (m) => m.status === "opened");
    expect(message.events.at(-1).detail).toMatchObject({ machine_open: false, machine: null });
  });

  it("leaves untracked mail alone", async () => {
    const html = '<p><a href="https://example.com/">x</a></p>';
    const { mail } = await deliveredMail({ to: "plain@example.com", subject: "Plain", html });
    expect(mail.html).toBe(html);
  });
});
