import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReplicas, type ReplicaSet, type TestSubscriber } from "@apiplat/testing";
import { CaptureServer, TEST_SECRET } from "./helpers.js";

/**
 * Three replicas' queue workers on one database, the API behind a real nginx, sending to a real SMTP server on
 * loopback: each email sent once, its status webhook delivered once, and those a killed replica had claimed taken over
 * within seconds.
 */
let set: ReplicaSet;
/** The status webhooks' receiver on loopback: the body of every delivery, in arrival order. */
let receiver: Server;
let receiverUrl: string;
const hooks: string[] = [];
let capture: CaptureServer;
let sender: TestSubscriber;

// With REPORT_COUNTS=1 each scenario prints its counts (how docs/SCALING.md's figures were taken).
const report = (scenario: string, counts: object) => {
  if (process.env.REPORT_COUNTS === "1") console.log(JSON.stringify({ scenario, ...counts }));
};

const LEASE_MS = 5_000;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = "";
    // A replica killed mid-delivery resets its connection: that delivery is simply not received.
    request.on("error", () => {});
    request.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      hooks.push(body);
      response.end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/email`;
  capture = new CaptureServer();
  await capture.start();
  set = await startReplicas("email-sending", {
    replicas: 3,
    startTimeoutMs: 240_000,
    env: {
      SMTP_URL: capture.url,
      EMAIL_SECRET: TEST_SECRET,
      EMAIL_INBOUND_PORT: "0",
      EMAIL_INBOUND_HOST: "127.0.0.1",
      EMAIL_OUTBOX_DIR: mkdtempSync(path.join(tmpdir(), "email-replicas-")),
      EMAIL_POLL_MS: "100",
      // The status webhooks' receiver is on loopback.
      OUTBOUND_ALLOW_CIDRS: "127.0.0.0/8",
      // A replica holds at most this many messages at once: the bound on what its death may send twice.
      EMAIL_DELIVERY_CONCURRENCY: "4",
      // Production's lease is 15 s; a shorter one shows the same takeover without waiting for it.
      EMAIL_LEASE_MS: String(LEASE_MS),
    },
  });
  sender = await set.platform.subscribe("email-sending", "MEGA");
}, 300_000);
afterAll(async () => {
  await set?.close();
  await capture?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function sendAll(count: number, label: string, during?: () => Promise<unknown>): Promise<{ accepted: string[]; unanswered: number }> {
  const accepted: string[] = [];
  let unanswered = 0;
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const n = next++;
      if (n === Math.floor(count / 2) && during) void during();
      const answer = await set
        .request({ method: "POST", path: "/send", headers: sender.headers, body: { to: `r${n}@example.com`, subject: `${label} ${n}`, html: `<p>${n}</p>` } })
        .catch(() => undefined);
      if (answer?.status === 202) accepted.push(answer.json().data.id);
      else unanswered++;
    }
  };
  await Promise.all(Array.from({ length: 6 }, lane));
  return { accepted, unanswered };
}

async function until(done: () => Promise<true | undefined>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const copiesOf = (id: string) => capture.messages.filter(capture.withEmailId(id)).length;

describe("email-sending on three replicas", () => {
  it("sends each email once, and its status webhook once, with three replicas' workers on one database", { timeout: 90_000 }, async () => {
    const webhook = await set.request({ method: "POST", path: "/webhooks", headers: sender.headers, body: { url: receiverUrl, event_types: ["sent"] } });
    expect(webhook.status).toBe(201);
    const { accepted, unanswered } = await sendAll(60, "steady");
    expect(unanswered).toBe(0);
    const hooksOf = (id: string) => hooks.filter((body) => body.includes(`"${id}"`)).length;
    await until(async () => (accepted.every((id) => copiesOf(id) > 0 && hooksOf(id) > 0) ? true : undefined), 30_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(accepted.map(copiesOf)).toEqual(accepted.map(() => 1));
    expect(accepted.map(hooksOf)).toEqual(accepted.map(() => 1));
    report("email on three replicas", { sent: 60, accepted: accepted.length, delivered: accepted.length, duplicates: 0, status_webhooks: hooks.length });
  });

  it("takes over within seconds what a replica killed mid-send had claimed; a message it had handed off may come twice", { timeout: 120_000 }, async () => {
    // A slow relay: each replica holds messages mid-transaction when it is killed.
    capture.delayMs = 300;
    let killedAt = 0;
    const { accepted, unanswered } = await sendAll(60, "crash", async () => {
      killedAt = Date.now();
      return set.stop(2, "SIGKILL");
    });
    await until(async () => (accepted.every((id) => copiesOf(id) > 0) ? true : undefined), 45_000);
    const lastArrival = Math.max(...capture.messages.map((message) => message.receivedAt));
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    capture.delayMs = 0;
    const copies = accepted.map(copiesOf);
    expect(copies.every((n) => n >= 1)).toBe(true);
    const duplicates = copies.reduce((sum, n) => sum + n - 1, 0);
    // At least once: only what the dead replica had handed to the relay (its in-flight sends) may come twice.
    expect(duplicates).toBeLessThanOrEqual(4);
    // The lease runs out and the next sweep (every lease, at most 5 s) gives the work back: within two leases, and a
    // second's delivery at the slow relay.
    expect(lastArrival - killedAt).toBeLessThan(2 * LEASE_MS + 3_000);
    report("email with a SIGKILL mid-send", {
      sent: 60,
      accepted: accepted.length,
      unanswered,
      delivered_distinct: copies.length,
      duplicates,
      last_delivery_after_kill_ms: lastArrival - killedAt,
    });
    await set.start(2);
  });
});
