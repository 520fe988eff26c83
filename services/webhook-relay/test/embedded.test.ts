import { startService } from "@apiplat/testing";
import relayService from "../src/service.js";
import type { Relay } from "../src/delivery/relay.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, type TestPlatform } from "@apiplat/testing";
import type { ServiceApp } from "@apiplat/service-kit";
import { Destination, FAST_RELAY, until } from "./helpers.js";

let platform: TestPlatform;
let app: ServiceApp;
let relay: Relay;
let destination: Destination;

beforeAll(async () => {
  platform = await createTestPlatform({ embedded: true, env: { OUTBOUND_ALLOW_CIDRS: "127.0.0.0/8" } });
  app = (await startService(relayService, { platform, settings: FAST_RELAY, inject: { onRelay: (r) => (relay = r) } })).app;
  destination = await new Destination().listen();
});

afterAll(async () => {
  await app.close();
  await destination.close();
  await platform.close();
});

describe("embedded mode (PGlite and the in-process store)", () => {
  it("captures, filters, forwards with a retry and purges", async () => {
    const { headers } = await platform.subscribe("webhook-relay", "PRO");
    const id = (await app.inject({ method: "POST", url: "/create", headers })).json().data.id;
    await app.inject({ method: "POST", url: `/forward/${id}`, headers, payload: { url: destination.url } });
    destination.script = [500];
    const sent = await app.inject({ method: "POST", url: `/h/${id}?a=1`, payload: Buffer.from([1, 2, 3]), headers: { "content-type": "application/octet-stream" } });
    expect(sent.statusCode).toBe(200);
    await destination.waitFor(2);
    expect(destination.received[1].body.equals(Buffer.from([1, 2, 3]))).toBe(true);
    const detail = await until(async () => {
      const d = (await app.inject({ method: "GET", url: `/inbox/${id}/requests/${sent.json().data.request_id}`, headers })).json().data;
      return d.forwarding.state === "succeeded" ? d : undefined;
    });
    expect(detail.attempts.map((a: any) => a.status_code)).toEqual([500, 200]);
    const filtered = (await app.inject({ method: "GET", url: `/inbox/${id}?q=%01%02`, headers })).json().data.requests;
    expect(filtered).toHaveLength(1);
    expect(await relay.purgeNow()).toEqual({ expired_inboxes: 0, trimmed_requests: 0 });
  });
});
