import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { dkimVerify } from "mailauth";
import { emailUnderTest, parse, waitForMessage } from "./helpers.js";
import { FakeDns } from "./fake-dns.js";

const dns = new FakeDns();

const email = emailUnderTest({}, { inject: { dnsResolver: dns } });

const send = (payload: object, headers: Record<string, string> = email.caller.headers, extra: Record<string, string> = {}) =>
  email.started.app.inject({ method: "POST", url: "/send", headers: { ...headers, ...extra }, payload });

async function sendAndCapture(payload: object, headers = email.caller.headers) {
  const res = await send(payload, headers);
  expect(res.statusCode, res.body).toBe(202);
  const id = res.json().data.id as string;
  const captured = await email.capture.waitFor(email.capture.withEmailId(id));
  return { id, captured, mail: await parse(captured.raw) };
}

/** What DNS answers for the platform's own DKIM record (the key kept under the platform account). */
async function platformDkimRecord(): Promise<[string, string]> {
  const { rows } = await email.started.platform.deps.db.query<{ dkim_selector: string; dkim_public_key: string }>(
    "SELECT dkim_selector, dkim_public_key FROM email_domains WHERE account_id = '' AND domain = 'mail.api.local'",
  );
  return [`${rows[0].dkim_selector}._domainkey.mail.api.local`, `v=DKIM1; k=rsa; p=${rows[0].dkim_public_key}`];
}

describe("POST /send", () => {
  it("accepts with 202, then delivers over SMTP: headers, VERP return path, DSN request, derived text part", async () => {
    const html = '<h1>Hi</h1><p>Read <a href="https://example.com/doc">the doc</a>.</p>';
    const res = await send({
      to: "Ada Lovelace <ada@example.com>",
      subject: "Hello",
      html,
      reply_to: "help@example.com",
      tags: ["welcome"],
      metadata: { user: "42" },
    });
    expect(res.statusCode).toBe(202);
    const data = res.json().data;
    expect(data).toMatchObject({ status: "queued", to: ["ada@example.com"], rejected: [], send_at: null });
    expect(data.id).toMatch(/^msg_[0-9a-f]{24}$/);
    expect(Date.parse(data.submitted_at)).not.toBeNaN();

    const captured = await email.capture.waitFor(email.capture.withEmailId(data.id));
    expect(captured.to).toEqual(["ada@example.com"]);
    // VERP: the return path names this message and carries a tag and an HMAC for this one recipient.
    expect(captured.from).toMatch(new RegExp(`^bounces\\+${data.id}\\.[0-9a-f]{8}\\.[0-9a-f]{16}@bounces\\.mail\\.api\\.local$`));
    expect(captured.from.split("@")[0].length).toBeLessThanOrEqual(64);
    expect(captured.dsn).toMatchObject({ ret: "HDRS", envid: data.id });
    expect(captured.rcptArgs[0]).toMatchObject({ NOTIFY: "SUCCESS,FAILURE,DELAY" });
    const mail = await parse(captured.raw);
    expect(mail.subject).toBe("Hello");
    expect(mail.from?.value[0]).toMatchObject({ name: "API Platform" });
    expect(mail.from?.value[0].address).toMatch(/^acct-[0-9a-f]{16}@mail\.api\.local$/);
    expect(mail.replyTo?.value[0].address).toBe("help@example.com");
    expect(mail.messageId).toBe(`<${data.id}@mail.api.local>`);
    expect(mail.html).toBe(html);
    expect(mail.text?.trim()).toBe("HI\n\nRead the doc [https://example.com/doc].");
    expect(mail.headers.has("list-unsubscribe")).toBe(false);

    const message = await waitForMessage(email.started, email.caller.headers, data.id, (m) => m.status === "sent");
    expect(message).toMatchObject({ tags: ["welcome"], metadata: { user: "42" }, category: "transactional", attempts: 1 });
    expect(message.events.map((e: { type: string }) => e.type)).toEqual(["queued", "sent"]);
  });

  it("signs with DKIM (rsa-sha256, relaxed/relaxed) that an independent verifier accepts", async () => {
    const { captured } = await sendAndCapture({ to: "grace@example.com", subject: "Signed", html: "<p>Signed body</p>" });
    const [name, value] = await platformDkimRecord();
    const result = await dkimVerify(captured.raw, {
      resolver: async (query: string, type: string) => {
        if (type === "TXT" && query === name) return [[value]];
        throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
      },
    } as never);
    expect(result.results).toHaveLength(1);
    expect(result.results[0].status.result).toBe("pass");
    expect(result.results[0].signingDomain).toBe("mail.api.local");
    expect(captured.raw.toString()).toMatch(/a=rsa-sha256; c=relaxed\/relaxed/);
  });

  it("keeps attachments byte-exact and inline images addressable by cid", async () => {
    const pdf = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x10, 0x80, ...Array.from({ length: 5000 }, (_, i) => i % 256)]);
    const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
    const { mail } = await sendAndCapture({
      to: "ada@example.com",
      subject: "Files",
      html: '<p>Logo: <img src="cid:logo@acme"></p>',
      attachments: [
        { filename: "report.pdf", content: pdf.toString("base64"), content_type: "application/pdf" },
        { filename: "logo.png", content: png.toString("base64"), content_type: "image/png", content_id: "logo@acme" },
      ],
    });
    const report = mail.attachments.find((a) => a.filename === "report.pdf")!;
    expect(report.contentType).toBe("application/pdf");
    expect(createHash("sha256").update(report.content).digest("hex")).toBe(createHash("sha256").update(pdf).digest("hex"));
    const logo = mail.attachments.find((a) => a.filename === "logo.png")!;
    expect(logo.cid).toBe("logo@acme");
    expect(logo.contentDisposition).toBe("inline");
    expect(Buffer.compare(logo.content, png)).toBe(0);
  });

  it("accepts attachments of exactly 25 MB and refuses one byte more with 413 naming size and limit", async () => {
    const limit = 25 * 1024 * 1024;
    const half = Buffer.alloc(limit / 2, 7).toString("base64");
    const halves = [
      { filename: "a.bin", content: half },
      { filename: "b.bin", content: half },
    ];
    const big = (attachments: object[]) => send({ to: "ada@example.com", subject: "Big", html: "<p>big</p>", attachments });
    const atLimit = await big(halves);
    expect(atLimit.statusCode).toBe(202);
    const over = await big([...halves, { filename: "c.bin", content: Buffer.from([1]).toString("base64") }]);
    expect(over.statusCode).toBe(413);
    const error = over.json().error;
    expect(error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(error.message).toContain(String(limit + 1));
    expect(error.message).toContain(String(limit));
    expect(error.details[0].field).toBe("attachments");
  });

  it("de-duplicates recipients and allows 50 across to, cc and bcc, not 51", { timeout: 90_000 }, async () => {
    const addresses = Array.from({ length: 51 }, (_, i) => `user${i}@example.com`);
    const ok = await send({
      to: addresses.slice(0, 30),
      cc: addresses.slice(30, 45),
      bcc: [...addresses.slice(45, 50), "USER0@example.com"],
      subject: "Many",
      html: "<p>x</p>",
    });
    expect(ok.statusCode).toBe(202);
    // One copy per recipient, each with its own return path.
    const id = ok.json().data.id as string;
    await waitForMessage(email.started, email.caller.headers, id, (m) => m.status === "sent", 60_000);
    const copies = email.capture.messages.filter(email.capture.withEmailId(id));
    expect(copies.flatMap((c) => c.to).sort()).toEqual(addresses.slice(0, 50).sort());
    expect(copies.every((c) => c.to.length === 1)).toBe(true);
    expect(new Set(copies.map((c) => c.from)).size).toBe(50);
    const mail = await parse(copies[0].raw);
    expect(mail.headers.has("bcc")).toBe(false);
    const tooMany = await send({ to: addresses.slice(0, 30), cc: addresses.slice(30, 45), bcc: addresses.slice(45, 51), subject: "Many", html: "<p>x</p>" });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.details[0]).toEqual({ field: "to", issue: "must name at most 50 recipients across to, cc and bcc; this message has 51" });
  });

  it("refuses invalid addresses, naming each", async () => {
    const res = await send({ to: ["ok@example.com", "not-an-address", "x@nodot"], subject: "x", html: "<p>x</p>" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.map((d: { field: string }) => d.field)).toEqual(["to[1]", "to[2]"]);
  });

  it("passes custom headers and refuses the ones the service owns", async () => {
    const { mail } = await sendAndCapture({ to: "ada@example.com", subject: "h", html: "<p>x</p>", headers: { "X-Campaign": "spring" } });
    expect(mail.headers.get("x-campaign")).toBe("spring");
    for (const name of ["From", "DKIM-Signature", "List-Unsubscribe", "message-id"]) {
      const res = await send({ to: "ada@example.com", subject: "h", html: "<p>x</p>", headers: { [name]: "x" } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details[0]).toEqual({ field: `headers.${name}`, issue: "is set by the service and may not be given" });
    }
    const injected = await send({ to: "ada@example.com", subject: "h", html: "<p>x</p>", headers: { "X-Evil": "a\r\nBcc: victim@example.com" } });
    expect(injected.statusCode).toBe(400);
  });

  it("needs html (or the spec's body) and takes the spec's name too", async () => {
    expect((await send({ to: "ada@example.com", subject: "x" })).json().error.details[0].field).toBe("html");
    const { mail } = await sendAndCapture({ to: "ada@example.com", subject: "spec", body: "<p>from body</p>" });
    expect(mail.html).toBe("<p>from body</p>");
  });

  it("refuses a from on a domain the account has not verified (422 naming it), and sends once it is verified with DKIM of that domain", async () => {
    const account = await email.started.subscribe("PRO");
    const refused = await send({ from: "news@acme-mail.com", to: "ada@example.com", subject: "x", html: "<p>x</p>" }, account.headers);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.message).toContain("acme-mail.com");

    const registered = await email.started.app.inject({ method: "POST", url: "/domains", headers: account.headers, payload: { domain: "acme-mail.com" } });
    expect(registered.statusCode).toBe(201);
    const pending = await send({ from: "news@acme-mail.com", to: "ada@example.com", subject: "x", html: "<p>x</p>" }, account.headers);
    expect(pending.statusCode).toBe(422);
    expect(pending.json().error.details[0]).toEqual({ field: "from", issue: "acme-mail.com is not verified" });

    dns.publish(registered.json().data.records);
    const verified = await email.started.app.inject({ method: "POST", url: "/domains/acme-mail.com/verify", headers: account.headers });
    expect(verified.json().data.status).toBe("verified");
    const { captured, id } = await sendAndCapture(
      { from: "Acme <news@acme-mail.com>", to: "ada@example.com", subject: "x", html: "<p>x</p>" },
      account.headers,
    );
    expect(captured.from).toMatch(new RegExp(`^bounces\\+${id}\\.[0-9a-f]{8}\\.[0-9a-f]{16}@bounces\\.acme-mail\\.com$`));
    const result = await dkimVerify(captured.raw, { resolver: async (name: string) => dns.resolveTxt(name) } as never);
    expect(result.results[0]).toMatchObject({ signingDomain: "acme-mail.com", status: { result: "pass" } });
  });

  it("on the shared domain sends only from the account's own address (any display name): security@ or another account's is a 422 naming from", async () => {
    const forged = await send({ from: "Security Team <security@mail.api.local>", to: "ada@example.com", subject: "x", html: "<p>x</p>" });
    expect(forged.statusCode).toBe(422);
    const detail = forged.json().error.details[0];
    expect(detail.field).toBe("from");
    const own = /^must be (acct-[0-9a-f]{16}@mail\.api\.local) on the shared domain mail\.api\.local$/.exec(detail.issue)?.[1];
    expect(own, detail.issue).toBeDefined();
    expect(forged.json().error.message).toContain(own);

    const { mail } = await sendAndCapture({ from: `Security Team <${own}>`, to: "ada@example.com", subject: "x", html: "<p>x</p>" });
    expect(mail.from?.value[0]).toEqual({ name: "Security Team", address: own });

    const other = await email.started.subscribe("PRO");
    const theirs = await send({ from: own!, to: "ada@example.com", subject: "x", html: "<p>x</p>" }, other.headers);
    expect(theirs.statusCode).toBe(422);
    expect(theirs.json().error.details[0].issue).not.toContain(own);
  });

  it("schedules up to 72 hours ahead, refuses later, and cancels until sent", async () => {
    const at = new Date(Date.now() + 60 * 60 * 1000).toISOString();
    const res = await send({ to: "ada@example.com", subject: "later", html: "<p>x</p>", send_at: at });
    expect(res.statusCode).toBe(202);
    expect(res.json().data).toMatchObject({ status: "scheduled", send_at: at });
    const tooLate = await send({
      to: "ada@example.com",
      subject: "later",
      html: "<p>x</p>",
      send_at: new Date(Date.now() + 72 * 3600_000 + 60_000).toISOString(),
    });
    expect(tooLate.json().error.details[0]).toEqual({ field: "send_at", issue: "must be at most 72 hours ahead" });
    const id = res.json().data.id;
    const cancel = await email.started.app.inject({ method: "POST", url: `/messages/${id}/cancel`, headers: email.caller.headers });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json().data.status).toBe("cancelled");
    expect((await email.started.app.inject({ method: "POST", url: `/messages/${id}/cancel`, headers: email.caller.headers })).statusCode).toBe(200);
    const sentId = (await sendAndCapture({ to: "ada@example.com", subject: "now", html: "<p>x</p>" })).id;
    await waitForMessage(email.started, email.caller.headers, sentId, (m) => m.status === "sent");
    const tooLateToCancel = await email.started.app.inject({ method: "POST", url: `/messages/${sentId}/cancel`, headers: email.caller.headers });
    expect(tooLateToCancel.statusCode).toBe(409);
  });
});

describe("Idempotency-Key", () => {
  it("returns the first answer for a retry and 409 for the same key with another body", async () => {
    const payload = { to: "ada@example.com", subject: "once", html: "<p>once</p>" };
    const first = await send(payload, email.caller.headers, { "idempotency-key": "order-1001" });
    const second = await send(payload, email.caller.headers, { "idempotency-key": "order-1001" });
    expect(first.statusCode).toBe(202);
    expect(second.statusCode).toBe(202);
    expect(second.json().data).toEqual(first.json().data);
    expect(second.headers["idempotent-replayed"]).toBe("true");
    const { rows } = await email.started.platform.deps.db.query<{ n: number }>("SELECT count(*)::int AS n FROM email_messages WHERE subject = 'once'");
    expect(rows[0].n).toBe(1);
    const other = await send({ ...payload, subject: "changed" }, email.caller.headers, { "idempotency-key": "order-1001" });
    expect(other.statusCode).toBe(409);
    expect(other.json().error.code).toBe("CONFLICT");
    // Keys belong to the account: another account may use the same key.
    const stranger = await email.started.subscribe("PRO");
    expect((await send(payload, stranger.headers, { "idempotency-key": "order-1001" })).json().data.id).not.toBe(first.json().data.id);
  });
});

describe("POST /send/batch", () => {
  it("queues each message on its own: one bad message does not fail the others", async () => {
    const res = await email.started.app.inject({
      method: "POST",
      url: "/send/batch",
      headers: email.caller.headers,
      payload: {
        messages: [
          { to: "a@example.com", subject: "one", html: "<p>1</p>" },
          { to: "broken", subject: "two", html: "<p>2</p>" },
          { to: "c@example.com", subject: "three", html: "<p>3</p>" },
        ],
      },
    });
    expect(res.statusCode).toBe(202);
    const data = res.json().data;
    expect(data).toMatchObject({ accepted: 2, failed: 1 });
    expect(data.results.map((r: { status: string }) => r.status)).toEqual(["accepted", "error", "accepted"]);
    expect(data.results[1].error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ field: "to[0]" }] });
    await email.capture.waitFor(email.capture.withEmailId(data.results[2].message.id));
  });

  it("takes at most 100 messages", async () => {
    const messages = Array.from({ length: 101 }, () => ({ to: "a@example.com", subject: "x", html: "<p>x</p>" }));
    const res = await email.started.app.inject({ method: "POST", url: "/send/batch", headers: email.caller.headers, payload: { messages } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0].field).toBe("messages");
  });
});

describe("auth", () => {
  it("needs a key and this service's host", async () => {
    const res = await email.started.app.inject({ method: "POST", url: "/send", payload: { to: "a@example.com", subject: "x", html: "<p>x</p>" } });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe("MISSING_API_KEY");
    const wrongHost = await send(
      { to: "a@example.com", subject: "x", html: "<p>x</p>" },
      { ...email.caller.headers, "x-gateway-host": "text-toolkit.api.local" },
    );
    expect(wrongHost.statusCode).toBe(403);
    expect(wrongHost.json().error.code).toBe("HOST_MISMATCH");
  });
});
