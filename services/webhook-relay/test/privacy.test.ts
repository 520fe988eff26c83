import { startService } from "@apiplat/testing";
import relayService from "../src/service.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestPlatform } from "@apiplat/testing";
import type { ServiceApp } from "@apiplat/service-kit";
import { Destination, testPlatform, until, FAST_RELAY } from "./helpers.js";

let platform: TestPlatform;
let app: ServiceApp;
let owner: Record<string, string>;
let reader: Record<string, string>;
let destination: Destination;

beforeAll(async () => {
  platform = await testPlatform();
  app = (await startService(relayService, { platform, settings: FAST_RELAY })).app;
  ({ headers: owner } = await platform.subscribe("webhook-relay", "MEGA"));
  ({ headers: reader } = await platform.subscribe("webhook-relay", "BASIC"));
  destination = await new Destination().listen();
});

afterAll(async () => {
  await app.close();
  await destination.close();
  await platform.close();
});

/** What the finding leaked: the destination, with the secret in its query, and its answers. */
const SECRET = "tok_9f8e7d6c5b4a";

/** A public inbox forwarding to a destination whose URL carries a secret, with one capture delivered. */
async function forwardedCapture() {
  const inbox = (await app.inject({ method: "POST", url: "/create", headers: owner })).json().data;
  const destinationUrl = `${destination.url}/in?token=${SECRET}`;
  expect((await app.inject({ method: "POST", url: `/forward/${inbox.id}`, headers: owner, payload: { url: destinationUrl } })).statusCode).toBe(200);
  const sent = await app.inject({ method: "POST", url: `/h/${inbox.id}/orders?n=1`, headers: { "content-type": "application/json" }, payload: '{"n":1}' });
  const rid = sent.json().data.request_id as string;
  await until(async () => {
    const res = await app.inject({ method: "GET", url: `/inbox/${inbox.id}/requests/${rid}`, headers: owner });
    return res.json().data.attempts.length > 0 ? true : undefined;
  });
  return { inboxId: inbox.id as string, rid, destinationUrl };
}

const CAPTURE_KEYS = [
  "id",
  "inbox_id",
  "received_at",
  "method",
  "path",
  "query",
  "query_string",
  "headers",
  "content_type",
  "body_size",
  "body",
  "body_encoding",
  "body_omitted",
  "source_ip",
].sort();

describe("what readers of a public inbox other than its owner see", () => {
  it("the capture only: no forwarding state, no attempts, nothing of the destination", async () => {
    const { inboxId, rid, destinationUrl } = await forwardedCapture();

    const listing = await app.inject({ method: "GET", url: `/inbox/${inboxId}`, headers: reader });
    expect(listing.statusCode).toBe(200);
    expect(Object.keys(listing.json().data.requests[0]).sort()).toEqual(CAPTURE_KEYS);
    const detail = await app.inject({ method: "GET", url: `/inbox/${inboxId}/requests/${rid}`, headers: reader });
    expect(detail.statusCode).toBe(200);
    expect(Object.keys(detail.json().data).sort()).toEqual(CAPTURE_KEYS);
    expect(detail.json().data.body).toBe('{"n":1}');
    for (const text of [listing.body, detail.body]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(new URL(destination.url).port);
      expect(text).not.toContain("answer 1 status 200");
    }

    // The owner still sees all of it.
    const mine = (await app.inject({ method: "GET", url: `/inbox/${inboxId}/requests/${rid}`, headers: owner })).json().data;
    expect(mine.forwarding).toEqual({ state: "succeeded", url: destinationUrl, attempts: 1, next_attempt_at: null });
    expect(mine.attempts).toHaveLength(1);
    expect(mine.attempts[0].url).toBe(`${destination.url}/in/orders?token=${SECRET}&n=1`);
    expect(mine.attempts[0].response_body).toBe("answer 1 status 200");
    const ownListing = (await app.inject({ method: "GET", url: `/inbox/${inboxId}`, headers: owner })).json().data;
    expect(ownListing.requests[0].forwarding.url).toBe(destinationUrl);
  });

  it("the capture only on the live stream too, while the owner's stream has its forwarding state", async () => {
    const { inboxId } = await forwardedCapture();
    const address = await app.listen({ port: 0, host: "127.0.0.1" });
    const firstEvent = async (headers: Record<string, string>) => {
      const controller = new AbortController();
      const res = await fetch(`${address}/inbox/${inboxId}/stream`, { headers: { ...headers, "last-event-id": "0" }, signal: controller.signal });
      const reader = res.body!.getReader();
      let text = "";
      let event: RegExpExecArray | null = null;
      while ((event = /\ndata: (.*)\n\n/.exec(text)) === null) text += new TextDecoder().decode((await reader.read()).value);
      controller.abort();
      return JSON.parse(event[1]);
    };
    const seenByReader = await firstEvent(reader);
    expect(Object.keys(seenByReader).sort()).toEqual(CAPTURE_KEYS);
    expect(JSON.stringify(seenByReader)).not.toContain(SECRET);
    const seenByOwner = await firstEvent(owner);
    expect(seenByOwner.forwarding.url).toContain(SECRET);
  });
});
