import { describe, expect, it } from "vitest";
import { CaptureServer, emailUnderTest, startEmail, waitForMessage } from "./helpers.js";

/** How delivery reacts to the relay: temporary failures retry with backoff, permanent ones bounce and suppress. */

const email = emailUnderTest({ retryBaseMs: 40 });

const send = async (payload: object, service = email.started, headers = email.caller.headers) => {
  const res = await service.app.inject({ method: "POST", url: "/send", headers, payload });
  expect(res.statusCode, res.body).toBe(202);
  return res.json().data as { id: string; rejected: { email: string; reason: string }[] };
};

describe("temporary failures", () => {
  it("retry with backoff (4xx at DATA), each attempt a deferred event, until the relay takes the message", async () => {
    let refusals = 2;
    email.capture.verdict = ({ to }) =>
      to.includes("retry@example.com") && refusals-- > 0 ? { code: 451, message: "451 4.3.0 Temporary local problem" } : { accept: true };
    const { id } = await send({ to: "retry@example.com", subject: "retry", html: "<p>x</p>" });
    const message = await waitForMessage(email.started, email.caller.headers, id, (m) => m.status === "sent");
    email.capture.verdict = () => ({ accept: true });
    expect(message.events.map((e: { type: string }) => e.type)).toEqual(["queued", "deferred", "deferred", "sent"]);
    expect(message.attempts).toBe(3);
    const deferred = message.events[1];
    expect(deferred.detail).toMatchObject({ smtp_code: 451, attempt: 1 });
    const [first, second] = message.events
      .slice(1, 3)
      .map((e: { detail: { next_attempt_at: string }; at: string }) => Date.parse(e.detail.next_attempt_at) - Date.parse(e.at));
    // 40 ms then 80 ms, each within ±20% jitter.
    expect(first).toBeGreaterThanOrEqual(31);
    expect(first).toBeLessThanOrEqual(49);
    expect(second).toBeGreaterThanOrEqual(63);
    expect(second).toBeLessThanOrEqual(97);
    expect(email.capture.messages.filter((m) => m.to.includes("retry@example.com"))).toHaveLength(1);
  });

  it("treat an unreachable relay as temporary, and bounce soft (not suppressed) when the retry window is over", async () => {
    const dead = new CaptureServer();
    await dead.start();
    const url = dead.url;
    await dead.stop();
    const service = await startEmail(email.capture, { smtpUrl: url, retryBaseMs: 30, retryWindowMs: 200 });
    try {
      const account = await service.subscribe("PRO");
      const { id } = await send({ to: "nowhere@example.com", subject: "x", html: "<p>x</p>" }, service, account.headers);
      const message = await waitForMessage(service, account.headers, id, (m) => m.status === "bounced");
      const types = message.events.map((e: { type: string }) => e.type);
      expect(types[0]).toBe("queued");
      expect(types.at(-1)).toBe("bounced");
      expect(types.slice(1, -1).every((t: string) => t === "deferred")).toBe(true);
      expect(message.events.at(-1).detail).toMatchObject({
        bounce_type: "soft",
        smtp_code: null,
        smtp_response: null,
        reason: "temporary failures for the whole retry window",
        last_failure: "the receiving server could not be reached",
      });
      // What the subscriber reads names no operator internals: not the relay's address, not the system error.
      const history = JSON.stringify(message.events);
      for (const internal of [url, url.replace("smtp://", ""), "ECONNREFUSED", "connect ", "127.0.0.1"]) expect(history).not.toContain(internal);
      for (const deferred of message.events.filter((e: { type: string }) => e.type === "deferred")) {
        expect(deferred.detail).toMatchObject({ reason: "the receiving server could not be reached", recipients: ["nowhere@example.com"] });
      }
      const suppressions = await service.app.inject({ method: "GET", url: "/suppressions", headers: account.headers });
      expect(suppressions.json().data.suppressions).toEqual([]);
    } finally {
      await service.close();
    }
  });
});

describe("leases", () => {
  it("do not make a process take its own message again while a slow relay still holds it", async () => {
    const slow = new CaptureServer();
    slow.delayMs = 800;
    await slow.start();
    const service = await startEmail(slow, { leaseMs: 200 });
    try {
      const account = await service.subscribe("PRO");
      const { id } = await send({ to: "patient@example.com", subject: "slow", html: "<p>x</p>" }, service, account.headers);
      await waitForMessage(service, account.headers, id, (m) => m.status === "sent");
      await new Promise((r) => setTimeout(r, 1_000));
      expect(slow.messages.filter(slow.withEmailId(id))).toHaveLength(1);
    } finally {
      await service.close();
      await slow.stop();
    }
  });
});

describe("permanent failures", () => {
  it("bounce hard at once (5xx), suppress the address, and refuse the next send to it with the reason", async () => {
    email.capture.refuseRecipients.set("gone@example.com", { code: 550, message: "550 5.1.1 User unknown" });
    const { id } = await send({ to: "gone@example.com", subject: "x", html: "<p>x</p>" });
    const message = await waitForMessage(email.started, email.caller.headers, id, (m) => m.status === "bounced");
    expect(message.attempts).toBe(1);
    expect(message.events.at(-1)).toMatchObject({ type: "bounced", recipient: "gone@example.com", detail: { bounce_type: "hard", smtp_code: 550 } });
    const list = await email.started.app.inject({ method: "GET", url: "/suppressions", headers: email.caller.headers });
    expect(list.json().data.suppressions).toMatchObject([{ email: "gone@example.com", reason: "hard_bounce", message_id: id }]);

    const again = await email.started.app.inject({
      method: "POST",
      url: "/send",
      headers: email.caller.headers,
      payload: { to: "gone@example.com", subject: "x", html: "<p>x</p>" },
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().error.details).toEqual([{ field: "to", issue: "gone@example.com: suppressed (hard_bounce)" }]);
    const mixed = await send({ to: ["gone@example.com", "fine@example.com"], subject: "x", html: "<p>x</p>" });
    expect(mixed.rejected).toEqual([{ email: "gone@example.com", reason: "suppressed (hard_bounce)" }]);
    const captured = await email.capture.waitFor(email.capture.withEmailId(mixed.id));
    expect(captured.to).toEqual(["fine@example.com"]);
  });

  it("bounce only the refused recipient when the relay takes the message for the others", async () => {
    email.capture.refuseRecipients.set("partial-gone@example.com", { code: 550, message: "550 5.1.1 No such user" });
    const { id } = await send({ to: ["partial-ok@example.com", "partial-gone@example.com"], subject: "x", html: "<p>x</p>" });
    // The relay's answer is recorded as two events, "sent" then the refused recipient's "bounced".
    const message = await waitForMessage(
      email.started,
      email.caller.headers,
      id,
      (m) => m.events.some((e) => e.type === "sent") && m.events.some((e) => e.type === "bounced"),
    );
    expect(message.status).toBe("sent");
    expect(message.events.find((e: { type: string }) => e.type === "bounced")).toMatchObject({
      recipient: "partial-gone@example.com",
      detail: { bounce_type: "hard" },
    });
    expect((await email.capture.waitFor(email.capture.withEmailId(id))).to).toEqual(["partial-ok@example.com"]);
  });

  it("DELETE /suppressions/{email} lets mail through again", async () => {
    email.capture.refuseRecipients.delete("gone@example.com");
    const del = await email.started.app.inject({ method: "DELETE", url: "/suppressions/gone@example.com", headers: email.caller.headers });
    expect(del.statusCode).toBe(204);
    expect((await email.started.app.inject({ method: "DELETE", url: "/suppressions/gone@example.com", headers: email.caller.headers })).statusCode).toBe(404);
    await send({ to: "gone@example.com", subject: "x", html: "<p>x</p>" });
  });
});
