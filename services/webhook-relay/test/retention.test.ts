import { startService } from "@apiplat/testing";
import relayService from "../src/service.js";
import type { Relay } from "../src/delivery/relay.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestPlatform } from "@apiplat/testing";
import type { ServiceApp } from "@apiplat/service-kit";
import { testPlatform, FAST_RELAY } from "./helpers.js";

let platform: TestPlatform;
let app: ServiceApp;
let relay: Relay;
let clock = new Date("2026-05-01T12:00:00.000Z");

beforeAll(async () => {
  platform = await testPlatform({ now: () => clock });
  app = (await startService(relayService, { platform, settings: FAST_RELAY, inject: { onRelay: (r) => (relay = r) } })).app;
});

afterAll(async () => {
  await app.close();
  await platform.close();
});

async function count(table: string, inboxId: string): Promise<number> {
  const column = table === "webhook_inboxes" ? "id" : "inbox_id";
  const { rows } = await platform.deps.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1`, [inboxId]);
  return rows[0].n;
}

describe("retention", () => {
  it("keeps a BASIC inbox 24 hours and a PRO one 30 days, then purges them with their captures", async () => {
    const basic = await platform.subscribe("webhook-relay", "BASIC");
    const pro = await platform.subscribe("webhook-relay", "PRO");
    const basicInbox = (await app.inject({ method: "POST", url: "/create", headers: basic.headers })).json().data;
    const proInbox = (await app.inject({ method: "POST", url: "/create", headers: pro.headers })).json().data;
    expect(basicInbox.expires_at).toBe("2026-05-02T12:00:00.000Z");
    expect(proInbox.expires_at).toBe("2026-05-31T12:00:00.000Z");
    for (const inbox of [basicInbox, proInbox]) {
      expect((await app.inject({ method: "POST", url: `/h/${inbox.id}`, payload: "kept" })).statusCode).toBe(200);
    }

    // One millisecond before the end of the BASIC retention: nothing goes.
    clock = new Date("2026-05-02T11:59:59.999Z");
    expect(await relay.purgeNow()).toEqual({ expired_inboxes: 0, trimmed_requests: 0 });
    expect((await app.inject({ method: "GET", url: `/inbox/${basicInbox.id}`, headers: basic.headers })).statusCode).toBe(200);

    // At the end of it the BASIC inbox is gone, with its captures; the PRO one stays.
    clock = new Date("2026-05-02T12:00:00.000Z");
    expect((await app.inject({ method: "GET", url: `/inbox/${basicInbox.id}`, headers: basic.headers })).statusCode).toBe(404);
    expect((await app.inject({ method: "POST", url: `/h/${basicInbox.id}`, payload: "late" })).statusCode).toBe(404);
    expect(await count("webhook_requests", basicInbox.id)).toBe(1);
    expect(await relay.purgeNow()).toEqual({ expired_inboxes: 1, trimmed_requests: 0 });
    expect(await count("webhook_inboxes", basicInbox.id)).toBe(0);
    expect(await count("webhook_requests", basicInbox.id)).toBe(0);
    expect(await count("webhook_requests", proInbox.id)).toBe(1);

    clock = new Date("2026-05-31T12:00:00.000Z");
    expect(await relay.purgeNow()).toEqual({ expired_inboxes: 1, trimmed_requests: 0 });
    expect(await count("webhook_requests", proInbox.id)).toBe(0);
  });
});

describe("captures kept per inbox", () => {
  it("keeps the newest 1,000 on BASIC: at the cap nothing goes, one more and the oldest goes", async () => {
    clock = new Date("2026-06-01T00:00:00.000Z");
    const basic = await platform.subscribe("webhook-relay", "BASIC");
    const inbox = (await app.inject({ method: "POST", url: "/create", headers: basic.headers })).json().data;
    expect(inbox.max_requests).toBe(1000);
    await platform.deps.db.query(
      `INSERT INTO webhook_requests (id, inbox_id, received_at, method, path, query_string, headers, body, body_size, source_ip, account_id, stored_bytes)
       SELECT gen_random_uuid(), $1, $2, 'POST', '/', '', '[]'::jsonb, convert_to('old ' || n, 'UTF8'), 5, '127.0.0.1', i.account_id, 5
       FROM generate_series(1, 999) AS n, webhook_inboxes i WHERE i.id = $1`,
      [inbox.id, clock],
    );
    expect((await app.inject({ method: "POST", url: `/h/${inbox.id}`, payload: "number 1000" })).statusCode).toBe(200);
    expect(await relay.purgeNow()).toEqual({ expired_inboxes: 0, trimmed_requests: 0 });
    expect(await count("webhook_requests", inbox.id)).toBe(1000);
    expect((await app.inject({ method: "POST", url: `/h/${inbox.id}`, payload: "number 1001" })).statusCode).toBe(200);
    expect(await relay.purgeNow()).toEqual({ expired_inboxes: 0, trimmed_requests: 1 });
    expect(await count("webhook_requests", inbox.id)).toBe(1000);
    const { rows } = await platform.deps.db.query<{ body: Uint8Array }>("SELECT body FROM webhook_requests WHERE inbox_id = $1 ORDER BY seq LIMIT 1", [
      inbox.id,
    ]);
    expect(Buffer.from(rows[0].body).toString()).toBe("old 2");
  });

  it("gives PRO 10,000 and ULTRA and MEGA 100,000", async () => {
    for (const [plan, cap] of [
      ["PRO", 10_000],
      ["ULTRA", 100_000],
      ["MEGA", 100_000],
    ] as const) {
      const sub = await platform.subscribe("webhook-relay", plan);
      const inbox = (await app.inject({ method: "POST", url: "/create", headers: sub.headers })).json().data;
      expect(inbox.max_requests, plan).toBe(cap);
    }
  });
});
