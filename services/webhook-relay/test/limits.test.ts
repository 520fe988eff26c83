import { startService } from "@apiplat/testing";
import relayService from "../src/service.js";
import type { Relay } from "../src/delivery/relay.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestPlatform } from "@apiplat/testing";
import type { ServiceApp } from "@apiplat/service-kit";
import { LIMITS } from "../src/domain/limits.js";
import { Destination, FAST_RELAY, testPlatform, until } from "./helpers.js";

let platform: TestPlatform;
let clock = new Date("2026-06-01T00:00:00.000Z");
let destination: Destination;

beforeAll(async () => {
  platform = await testPlatform({ now: () => clock });
  destination = await new Destination().listen();
});

afterAll(async () => {
  await destination.close();
  await platform.close();
});

async function createInbox(app: ServiceApp, headers: Record<string, string>) {
  const res = await app.inject({ method: "POST", url: "/create", headers });
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: string; max_stored_bytes: number };
}

async function count(sql: string, params: unknown[]): Promise<number> {
  const { rows } = await platform.deps.db.query<{ n: number }>(sql, params);
  return Number(rows[0].n);
}

const capturesOf = (inboxId: string) => count("SELECT count(*) AS n FROM webhook_requests WHERE inbox_id = $1", [inboxId]);

describe("captures per inbox and second (10/s, bursts of 20)", () => {
  let app: ServiceApp;
  let headers: Record<string, string>;

  beforeAll(async () => {
    // The service's own limit, not the one FAST_RELAY lifts for the other tests.
    app = (
      await startService(relayService, {
        platform,
        settings: { ...FAST_RELAY, captureRate: { perSecond: LIMITS.capturesPerSecond, burst: LIMITS.captureBurst } },
      })
    ).app;
    ({ headers } = await platform.subscribe("webhook-relay", "MEGA"));
  });

  afterAll(async () => {
    await app.close();
  });

  // The limit is shared by every replica and kept on Redis's clock (see @apiplat/storage's rate-limit.ts): this test
  // runs on real time, not on the injected clock.
  it("takes a burst of 20, refuses the rest with 429 and Retry-After, then admits again 100 ms later", async () => {
    const inbox = await createInbox(app, headers);
    const send = () => app.inject({ method: "POST", url: `/h/${inbox.id}`, headers: { "content-type": "text/plain" }, payload: "x" });
    // A first capture loads the inbox into the hook's cache, so that the burst reaches the limit at once; its token is
    // back 100 ms later.
    expect((await send()).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const burstAt = Date.now();
    const burst = await Promise.all(Array.from({ length: 30 }, send));
    expect(burst.filter((r) => r.statusCode === 200)).toHaveLength(20);
    const refused = burst.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(10);
    expect(refused[0].headers["retry-after"]).toBe("1");
    expect(refused[0].headers["content-security-policy"]).toBe("sandbox");
    expect(refused[0].json().error).toEqual({
      code: "RATE_LIMITED",
      message: "This inbox accepts at most 10 captures per second (bursts of 20); retry after 1 second(s).",
      details: [{ field: "inbox", issue: "at most 10 captures per second (bursts of 20)" }],
    });
    expect(await capturesOf(inbox.id)).toBe(21);

    // The next token comes 100 ms after the burst, not before.
    let next = await send();
    while (next.statusCode === 429) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      next = await send();
    }
    expect(next.statusCode).toBe(200);
    expect(Date.now() - burstAt).toBeGreaterThanOrEqual(100);
    expect(await capturesOf(inbox.id)).toBe(22);
  });
});

describe("captures per inbox, each inbox apart", () => {
  let app: ServiceApp;
  let headers: Record<string, string>;

  beforeAll(async () => {
    // One capture a second: nothing refills while the test runs.
    app = (await startService(relayService, { platform, settings: { ...FAST_RELAY, captureRate: { perSecond: 1, burst: 20 } } })).app;
    ({ headers } = await platform.subscribe("webhook-relay", "BASIC"));
  });

  afterAll(async () => {
    await app.close();
  });

  it("counts each inbox on its own, and refuses before reading the body", async () => {
    const busy = await createInbox(app, headers);
    const quiet = await createInbox(app, headers);
    await Promise.all(Array.from({ length: 20 }, () => app.inject({ method: "POST", url: `/h/${busy.id}`, payload: "x" })));
    const big = await app.inject({
      method: "POST",
      url: `/h/${busy.id}`,
      headers: { "content-type": "application/octet-stream" },
      payload: Buffer.alloc(5 * 1024 * 1024),
    });
    expect(big.statusCode).toBe(429);
    expect((await app.inject({ method: "POST", url: `/h/${quiet.id}`, payload: "y" })).statusCode).toBe(200);
    expect(await capturesOf(busy.id)).toBe(20);
  });
});

describe("stored bytes per account", () => {
  let relay: Relay;
  const QUOTA = 300_000;
  let app: ServiceApp;

  beforeAll(async () => {
    app = (
      await startService(relayService, {
        platform,
        settings: { ...FAST_RELAY, storageQuotaBytes: { BASIC: QUOTA, PRO: 2 * QUOTA, ULTRA: 3 * QUOTA, MEGA: 4 * QUOTA } },
        inject: { onRelay: (r) => (relay = r) },
      })
    ).app;
  });

  afterAll(async () => {
    await app.close();
  });

  it("states each plan's quota on the inbox: 100 MiB, 2 GiB, 20 GiB, 100 GiB", async () => {
    const plain = (await startService(relayService, { platform, settings: FAST_RELAY })).app;
    try {
      const expected = { BASIC: 100 * 2 ** 20, PRO: 2 * 2 ** 30, ULTRA: 20 * 2 ** 30, MEGA: 100 * 2 ** 30 };
      for (const [plan, bytes] of Object.entries(expected)) {
        const { headers } = await platform.subscribe("webhook-relay", plan as keyof typeof expected);
        expect((await createInbox(plain, headers)).max_stored_bytes, plan).toBe(bytes);
      }
    } finally {
      await plain.close();
    }
  });

  /** Computed here from what was sent: body, path, query and every header name and value as received. */
  function bytesOf(body: number, headerList: [string, string][], path: string, query: string) {
    return body + path.length + query.length + headerList.reduce((sum, [name, value]) => sum + name.length + value.length, 0);
  }

  /** app.inject's headers for a body of `size` bytes, in the order it sends them. */
  function injectedHeaders(size: number): [string, string][] {
    const list: [string, string][] = [
      ["content-type", "application/octet-stream"],
      ["user-agent", "lightMyRequest"],
      ["host", "localhost:80"],
    ];
    if (size > 0) list.push(["content-length", String(size)]);
    return list;
  }

  const capture = (inboxId: string, size: number, fill = 0x61) =>
    app.inject({ method: "POST", url: `/h/${inboxId}/q?a=1`, headers: { "content-type": "application/octet-stream" }, payload: Buffer.alloc(size, fill) });

  it("stores up to the quota exactly, refuses one byte more with 507 and writes nothing of it", async () => {
    const { headers } = await platform.subscribe("webhook-relay", "BASIC");
    const inbox = await createInbox(app, headers);
    expect(inbox.max_stored_bytes).toBe(QUOTA);

    // A large body (kept in parts) and the headers that came with it.
    const first = await capture(inbox.id, 200_000);
    expect(first.statusCode).toBe(200);
    const stored = (await app.inject({ method: "GET", url: `/inbox/${inbox.id}/requests/${first.json().data.request_id}`, headers })).json().data;
    const sentHeaders = stored.headers.map((h: { name: string; value: string }) => [h.name, h.value] as [string, string]);
    expect(sentHeaders).toEqual(injectedHeaders(200_000));
    const used = bytesOf(200_000, sentHeaders, "/q", "a=1");

    // The body that fills the quota to the byte (its own Content-Length header counts too).
    let fill = QUOTA - used;
    while (bytesOf(fill, injectedHeaders(fill), "/q", "a=1") > QUOTA - used) fill--;
    expect(bytesOf(fill, injectedHeaders(fill), "/q", "a=1")).toBe(QUOTA - used);
    const partsBefore = await count("SELECT count(*) AS n FROM webhook_request_bodies", []);

    const over = await capture(inbox.id, fill + 1, 0x62);
    expect(over.statusCode).toBe(507);
    expect(over.json().error.code).toBe("STORAGE_QUOTA_EXCEEDED");
    expect(over.json().error.details).toEqual([{ field: "body", issue: `does not fit: the inbox owner's account keeps at most ${QUOTA} bytes of captures` }]);
    expect(await capturesOf(inbox.id)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM webhook_request_bodies", [])).toBe(partsBefore);

    const exact = await capture(inbox.id, fill, 0x63);
    expect(exact.statusCode).toBe(200);
    const accountStorage = () =>
      count("SELECT stored_bytes AS n FROM webhook_account_storage s JOIN webhook_inboxes i ON i.account_id = s.account_id WHERE i.id = $1", [inbox.id]);
    expect(await accountStorage()).toBe(QUOTA);

    // Full: even an empty body (its headers count) is refused, in any of the account's inboxes.
    const other = await createInbox(app, headers);
    expect((await capture(other.id, 0)).statusCode).toBe(507);
    expect(await capturesOf(other.id)).toBe(0);

    // Deleting an inbox gives its bytes back (the cascade runs the accounting trigger).
    expect((await app.inject({ method: "DELETE", url: `/inbox/${inbox.id}`, headers })).statusCode).toBe(200);
    expect(
      await count("SELECT stored_bytes AS n FROM webhook_account_storage s JOIN webhook_inboxes i ON i.account_id = s.account_id WHERE i.id = $1", [other.id]),
    ).toBe(0);
    expect((await capture(other.id, 0)).statusCode).toBe(200);
  });

  it("counts accounts apart, and gives bytes back when retention purges", async () => {
    const a = await platform.subscribe("webhook-relay", "BASIC");
    const b = await platform.subscribe("webhook-relay", "BASIC");
    const inboxA = await createInbox(app, a.headers);
    const inboxB = await createInbox(app, b.headers);
    expect((await capture(inboxA.id, 250_000)).statusCode).toBe(200);
    expect((await capture(inboxA.id, 60_000)).statusCode).toBe(507);
    expect((await capture(inboxB.id, 250_000)).statusCode).toBe(200);

    clock = new Date(clock.getTime() + 25 * 60 * 60 * 1000);
    await relay.purgeNow();
    const left = await count("SELECT coalesce(sum(stored_bytes), 0) AS n FROM webhook_account_storage WHERE account_id IN ($1, $2)", [
      a.accountId,
      b.accountId,
    ]);
    expect(left).toBe(0);
    expect(await count("SELECT count(*) AS n FROM webhook_request_bodies", [])).toBe(0);
  });
});

describe("large bodies", () => {
  let app: ServiceApp;
  let headers: Record<string, string>;

  beforeAll(async () => {
    app = (await startService(relayService, { platform, settings: FAST_RELAY })).app;
    ({ headers } = await platform.subscribe("webhook-relay", "MEGA"));
  });

  afterAll(async () => {
    await app.close();
  });

  it("keeps a 10 MiB body in 256 KiB parts beside its row and gives the exact bytes back, to /raw and to a retried delivery", async () => {
    const body = Buffer.alloc(LIMITS.maxBodyBytes);
    for (let i = 0; i < body.length; i++) body[i] = (i * 7 + (i >> 11)) & 0xff;
    const inbox = await createInbox(app, headers);
    await app.inject({ method: "POST", url: `/forward/${inbox.id}`, headers, payload: { url: destination.url } });
    destination.received.length = 0;
    destination.script = [500];
    const sent = await app.inject({ method: "POST", url: `/h/${inbox.id}`, headers: { "content-type": "application/octet-stream" }, payload: body });
    expect(sent.statusCode).toBe(200);
    const rid = sent.json().data.request_id;

    const { rows } = await platform.deps.db.query<{ in_row: boolean; parts: number }>(
      `SELECT r.body IS NOT NULL AS in_row, (SELECT count(*)::int FROM webhook_request_bodies b WHERE b.request_id = r.id) AS parts
       FROM webhook_requests r WHERE r.id = $1`,
      [rid],
    );
    expect(rows[0]).toEqual({ in_row: false, parts: 40 });

    const raw = await app.inject({ method: "GET", url: `/inbox/${inbox.id}/requests/${rid}/raw`, headers });
    expect(raw.rawPayload.equals(body)).toBe(true);

    // The first attempt is sent from memory and fails; the retry reads the parts back from the database.
    await destination.waitFor(1, 10_000);
    clock = new Date(clock.getTime() + 1_000);
    await destination.waitFor(2, 10_000);
    expect(destination.received.map((r) => r.body.equals(body))).toEqual([true, true]);
    await until(async () => {
      const detail = (await app.inject({ method: "GET", url: `/inbox/${inbox.id}/requests/${rid}`, headers })).json().data;
      return detail.forwarding.state === "succeeded" ? true : undefined;
    });
  });

  it("shows a body of exactly 1 MiB in the request's JSON and leaves out one byte more", async () => {
    const inbox = await createInbox(app, headers);
    for (const size of [LIMITS.detailBodyBytes, LIMITS.detailBodyBytes + 1]) {
      const sent = await app.inject({ method: "POST", url: `/h/${inbox.id}`, headers: { "content-type": "text/plain" }, payload: Buffer.alloc(size, 0x7a) });
      const detail = (await app.inject({ method: "GET", url: `/inbox/${inbox.id}/requests/${sent.json().data.request_id}`, headers })).json().data;
      expect(detail.body_size).toBe(size);
      expect(detail.body_omitted).toBe(size > LIMITS.detailBodyBytes);
      expect(detail.body).toBe(size > LIMITS.detailBodyBytes ? null : "z".repeat(size));
    }
  });
});
