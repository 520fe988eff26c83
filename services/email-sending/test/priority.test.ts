import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addContact, CaptureServer, startEmail, type EmailService } from "./helpers.js";

/** ULTRA and MEGA traffic overtakes BASIC and PRO: with 2,000 PRO messages queued, an ULTRA message arrives within 2 s. */

let capture: CaptureServer;
let started: EmailService;

beforeAll(async () => {
  capture = new CaptureServer();
  // A relay that takes 20 ms per message over 2 connections: at most 100 messages a second, so 2,000 make a backlog.
  capture.delayMs = 20;
  await capture.start();
  started = await startEmail(capture, { smtpConnections: 2, deliveryConcurrency: 16 });
});
afterAll(async () => {
  await started.close();
  await capture.stop();
});

describe("priority lane", () => {
  it("delivers an ULTRA message within 2 s while 2,000 PRO messages wait", { timeout: 120_000 }, async () => {
    const pro = await started.subscribe("PRO");
    const ultra = await started.subscribe("ULTRA");
    const sendBatch = async (batch: number) => {
      const messages = Array.from({ length: 100 }, (_, i) => ({ to: `bulk${batch * 100 + i}@example.com`, subject: "bulk", html: "<p>bulk</p>" }));
      const res = await started.app.inject({ method: "POST", url: "/send/batch", headers: pro.headers, payload: { messages } });
      expect(res.json().data.accepted).toBe(100);
    };
    for (let batch = 0; batch < 20; batch += 4) await Promise.all([0, 1, 2, 3].map((i) => sendBatch(batch + i)));
    const { rows } = await started.platform.deps.db.query<{ n: number }>("SELECT count(*)::int AS n FROM email_messages WHERE queue_state <> 'done'");
    const waitingBefore = rows[0].n;
    expect(waitingBefore).toBeGreaterThan(1000);

    const submitted = Date.now();
    const res = await started.app.inject({
      method: "POST",
      url: "/send",
      headers: ultra.headers,
      payload: { to: "vip@example.com", subject: "urgent", html: "<p>now</p>" },
    });
    expect(res.statusCode).toBe(202);
    const arrived = await capture.waitFor(capture.withEmailId(res.json().data.id), 5_000);
    const latency = arrived.receivedAt - submitted;
    const proDelivered = capture.messages.filter((m) => m.to[0].startsWith("bulk")).length;
    expect(latency).toBeLessThan(2_000);
    // It overtook the backlog: most PRO messages were still waiting when it arrived.
    expect(proDelivered).toBeLessThan(2_000 - 1_000);
  });

  it("shows the lane in the answers: priority for ULTRA and MEGA (marketing too), standard for BASIC and PRO", async () => {
    for (const [plan, lane] of [
      ["BASIC", "standard"],
      ["PRO", "standard"],
      ["ULTRA", "priority"],
      ["MEGA", "priority"],
    ] as const) {
      const account = await started.subscribe(plan);
      await addContact(started, account.headers, "fan@example.com");
      const res = await started.app.inject({
        method: "POST",
        url: "/send",
        headers: account.headers,
        payload: { to: "fan@example.com", subject: "News", html: "<p>x</p>", category: "marketing" },
      });
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json().data.lane).toBe(lane);
      const read = await started.app.inject({ method: "GET", url: `/messages/${res.json().data.id}`, headers: account.headers });
      expect(read.json().data).toMatchObject({ category: "marketing", lane });
    }
  });
});
