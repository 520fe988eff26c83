import { get, type IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReplicas, type ReplicaSet, type TestSubscriber } from "@apiplat/testing";
import { Destination, until } from "./helpers.js";

/**
 * Three replicas of webhook-relay on one PostgreSQL and Redis, the API behind a real nginx: a live stream on one
 * replica sees the captures the others take, and forwarding delivers each capture, also when a replica is killed.
 */
let set: ReplicaSet;
let owner: TestSubscriber;
let destination: Destination;

// With REPORT_COUNTS=1 each scenario prints its counts (how docs/SCALING.md's figures were taken).
const report = (scenario: string, counts: object) => {
  if (process.env.REPORT_COUNTS === "1") console.log(JSON.stringify({ scenario, ...counts }));
};

beforeAll(async () => {
  destination = await new Destination().listen();
  set = await startReplicas("webhook-relay", {
    replicas: 3,
    startTimeoutMs: 240_000,
    env: {
      OUTBOUND_ALLOW_CIDRS: "127.0.0.0/8",
      WEBHOOK_RELAY_POLL_INTERVAL_MS: "200",
      // Bursts to one inbox on purpose: the per-inbox limit has tests of its own.
      WEBHOOK_RELAY_CAPTURES_PER_SECOND: "10000",
      WEBHOOK_RELAY_CAPTURE_BURST: "10000",
    },
  });
  owner = await set.platform.subscribe("webhook-relay", "PRO");
}, 300_000);
afterAll(async () => {
  await set?.close();
  await destination?.close();
});

async function createInbox(): Promise<string> {
  const created = await set.request({ method: "POST", path: "/create", headers: owner.headers });
  expect(created.status, created.body).toBe(201);
  return created.json().data.id;
}

/** A capture sent straight to one replica (hook URLs are public); its request id, or undefined when not answered. */
async function capture(inbox: string, replica: number, body: string): Promise<string | undefined> {
  const answer = await set.request({ method: "POST", path: `/h/${inbox}`, headers: { "content-type": "text/plain" }, body, replica }).catch(() => undefined);
  return answer && answer.status < 300 ? (answer.headers["x-webhook-request-id"] as string) : undefined;
}

/** The `request` events of a Server-Sent Events stream, as they arrive. */
class StreamReader {
  readonly events: { id: string; data: { id: string; body: string } }[] = [];
  private buffer = "";
  private response!: IncomingMessage;

  static open(url: string, headers: Record<string, string>): Promise<StreamReader> {
    const reader = new StreamReader();
    return new Promise((resolve, reject) => {
      get(url, { headers }, (res) => {
        reader.response = res;
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => reader.push(chunk));
        resolve(reader);
      }).on("error", reject);
    });
  }

  private push(chunk: string): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf("\n\n")) >= 0) {
      const fields = Object.fromEntries(
        this.buffer
          .slice(0, end)
          .split("\n")
          .map((line) => [line.slice(0, line.indexOf(": ")), line.slice(line.indexOf(": ") + 2)]),
      );
      this.buffer = this.buffer.slice(end + 2);
      if (fields.event === "request") this.events.push({ id: fields.id, data: JSON.parse(fields.data) });
    }
  }

  close(): void {
    this.response.destroy();
  }
}

describe("webhook-relay on three replicas", () => {
  it("streams on replica A the captures taken by B and C, in order, each once", { timeout: 60_000 }, async () => {
    const inbox = await createInbox();
    const stream = await StreamReader.open(`${set.replicas[0].url}/inbox/${inbox}/stream`, owner.headers);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const taken: string[] = [];
    for (let n = 0; n < 20; n++) {
      const id = await capture(inbox, 1 + (n % 2), `capture ${n}`);
      expect(id).toBeDefined();
      taken.push(id!);
    }
    await until(async () => (stream.events.length >= 20 ? true : undefined), 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    stream.close();
    expect(stream.events.map((event) => event.data.id)).toEqual(taken);
    expect(stream.events.map((event) => event.data.body)).toEqual(taken.map((_, n) => `capture ${n}`));
    const eventIds = stream.events.map((event) => Number(event.id));
    expect(eventIds).toEqual([...eventIds].sort((a, b) => a - b));
    report("live stream across replicas", { sent: 20, streamed: stream.events.length, expected: 20 });
  });

  it("forwards every capture once, and those of a replica killed mid-burst at least once", { timeout: 120_000 }, async () => {
    const inbox = await createInbox();
    const forwarded = await set.request({ method: "POST", path: `/forward/${inbox}`, headers: owner.headers, body: { url: `${destination.url}/in` } });
    expect(forwarded.status, forwarded.body).toBe(200);
    const first = destination.received.length;
    const accepted: string[] = [];
    let unanswered = 0;
    const total = 90;
    let next = 0;
    const lane = async () => {
      while (next < total) {
        const n = next++;
        if (n === 45) void set.stop(2, "SIGKILL");
        const body = `forward ${n}`;
        const replica = set.replicas[n % 3].running ? n % 3 : (n + 1) % 3;
        if ((await capture(inbox, replica, body)) === undefined) unanswered++;
        else accepted.push(body);
      }
    };
    await Promise.all(Array.from({ length: 6 }, lane));
    const bodies = () => destination.received.slice(first).map((request) => request.body.toString("utf8"));
    // What the dead replica had claimed comes back to the others once its 10 s claim lapses.
    await until(async () => (accepted.every((body) => bodies().includes(body)) ? true : undefined), 30_000);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const delivered = bodies();
    const distinct = new Set(delivered);
    for (const body of accepted) expect(distinct.has(body)).toBe(true);
    // Captures the dead replica stored but never answered may be forwarded too; a delivery it sent but had not
    // recorded is sent again by another replica.
    expect(distinct.size - accepted.length).toBeLessThanOrEqual(unanswered);
    const duplicates = delivered.length - distinct.size;
    report("forwarding with a SIGKILL mid-burst", { sent: total, accepted: accepted.length, unanswered, delivered_distinct: distinct.size, duplicates });
    await set.start(2);
  });

  it("forwards each capture exactly once while all three replicas run", { timeout: 60_000 }, async () => {
    const inbox = await createInbox();
    const forwarded = await set.request({ method: "POST", path: `/forward/${inbox}`, headers: owner.headers, body: { url: `${destination.url}/steady` } });
    expect(forwarded.status, forwarded.body).toBe(200);
    const first = destination.received.length;
    const sent = await Promise.all(Array.from({ length: 60 }, (_, n) => capture(inbox, n % 3, `steady ${n}`)));
    expect(sent.every((id) => id !== undefined)).toBe(true);
    const bodies = () =>
      destination.received
        .slice(first)
        .filter((request) => request.url === "/steady")
        .map((request) => request.body.toString("utf8"));
    await until(async () => (bodies().length >= 60 ? true : undefined), 20_000);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(bodies().sort()).toEqual(Array.from({ length: 60 }, (_, n) => `steady ${n}`).sort());
    report("forwarding on three replicas", { sent: 60, delivered: bodies().length, expected: 60 });
  });
});
