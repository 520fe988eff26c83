import { get, type IncomingMessage } from "node:http";
import { startService } from "@apiplat/testing";
import relayService from "../src/service.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestPlatform } from "@apiplat/testing";
import type { ServiceApp } from "@apiplat/service-kit";
import { testPlatform, until, FAST_RELAY } from "./helpers.js";

let platform: TestPlatform;
let capturing: ServiceApp;
let streaming: ServiceApp;
let streamBase: string;
let headers: Record<string, string>;

beforeAll(async () => {
  platform = await testPlatform();
  // Two replicas on the same PostgreSQL and Redis: captures on one, streams from the other.
  capturing = (await startService(relayService, { platform, settings: FAST_RELAY })).app;
  streaming = (await startService(relayService, { platform, settings: FAST_RELAY })).app;
  streamBase = await streaming.listen({ port: 0, host: "127.0.0.1" });
  ({ headers } = await platform.subscribe("webhook-relay", "MEGA"));
});

afterAll(async () => {
  await capturing.close();
  await streaming.close();
  await platform.close();
});

interface SseMessage {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
  retry?: string;
}

class SseClient {
  readonly messages: SseMessage[] = [];
  private buffer = "";
  response!: IncomingMessage;

  static open(url: string, extraHeaders: Record<string, string> = {}): Promise<SseClient> {
    const client = new SseClient();
    return new Promise((resolve, reject) => {
      get(url, { headers: { ...headers, ...extraHeaders } }, (res) => {
        client.response = res;
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => client.push(chunk));
        resolve(client);
      }).on("error", reject);
    });
  }

  private push(chunk: string): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf("\n\n")) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const message: SseMessage = {};
      for (const line of block.split("\n")) {
        if (line.startsWith(": ")) message.comment = line.slice(2);
        else {
          const colon = line.indexOf(": ");
          (message as Record<string, string>)[line.slice(0, colon)] = line.slice(colon + 2);
        }
      }
      this.messages.push(message);
    }
  }

  events(): SseMessage[] {
    return this.messages.filter((m) => m.event === "request");
  }

  async waitForEvents(count: number): Promise<SseMessage[]> {
    return until(async () => (this.events().length >= count ? this.events() : undefined));
  }

  close(): void {
    this.response.destroy();
  }
}

async function createInbox(): Promise<string> {
  return (await capturing.inject({ method: "POST", url: "/create", headers })).json().data.id;
}

describe("live stream", () => {
  it("delivers captures made on another instance, in order, with keep-alive comments", async () => {
    const id = await createInbox();
    const client = await SseClient.open(`${streamBase}/inbox/${id}/stream`);
    expect(client.response.statusCode).toBe(200);
    expect(client.response.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(client.response.headers["x-ratelimit-requests-limit"]).toBe("1000000");
    await until(async () => (client.messages.some((m) => m.comment === "live") ? true : undefined));
    expect(client.messages[0]).toEqual({ retry: "3000" });

    const first = await capturing.inject({ method: "POST", url: `/h/${id}/a?x=1`, payload: '{"n":1}', headers: { "content-type": "application/json" } });
    await capturing.inject({ method: "PUT", url: `/h/${id}`, payload: Buffer.from([0, 255]) });
    const events = await client.waitForEvents(2);
    const [one, two] = events.map((e) => JSON.parse(e.data!));
    expect(one).toMatchObject({ id: first.json().data.request_id, method: "POST", path: "/a", query: { x: "1" }, body: '{"n":1}', body_encoding: "text" });
    expect(two).toMatchObject({ method: "PUT", body: "AP8=", body_encoding: "base64", body_size: 2 });
    expect(Number(events[1].id)).toBeGreaterThan(Number(events[0].id));
    await until(async () => (client.messages.some((m) => m.comment === "keep-alive") ? true : undefined));
    client.close();
  });

  it("resumes after Last-Event-ID with what was missed, then goes live", async () => {
    const id = await createInbox();
    for (const n of [1, 2, 3]) await capturing.inject({ method: "POST", url: `/h/${id}`, payload: `m${n}` });
    const listed = (await capturing.inject({ method: "GET", url: `/inbox/${id}`, headers })).json().data.requests;
    expect(listed.map((r: any) => r.body)).toEqual(["m3", "m2", "m1"]);

    const first = await SseClient.open(`${streamBase}/inbox/${id}/stream?last_event_id=0`);
    const all = await first.waitForEvents(3);
    expect(all.map((e) => JSON.parse(e.data!).body)).toEqual(["m1", "m2", "m3"]);
    first.close();

    const resumed = await SseClient.open(`${streamBase}/inbox/${id}/stream`, { "last-event-id": all[0].id! });
    const missed = await resumed.waitForEvents(2);
    expect(missed.map((e) => JSON.parse(e.data!).body)).toEqual(["m2", "m3"]);
    await capturing.inject({ method: "POST", url: `/h/${id}`, payload: "m4" });
    const after = await resumed.waitForEvents(3);
    expect(after.map((e) => JSON.parse(e.data!).body)).toEqual(["m2", "m3", "m4"]);
    resumed.close();
  });

  it("ends open streams when the app closes, instead of hanging the shutdown", async () => {
    const replica = (await startService(relayService, { platform, settings: FAST_RELAY })).app;
    const base = await replica.listen({ port: 0, host: "127.0.0.1" });
    const id = await createInbox();
    const client = await SseClient.open(`${base}/inbox/${id}/stream`);
    await until(async () => (client.messages.some((m) => m.comment === "live") ? true : undefined));
    const ended = new Promise<void>((resolve) => client.response.on("end", () => resolve()));
    const started = Date.now();
    await replica.close();
    await ended;
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("ends the stream once its inbox is deleted", async () => {
    const id = await createInbox();
    const client = await SseClient.open(`${streamBase}/inbox/${id}/stream`);
    await until(async () => (client.messages.some((m) => m.comment === "live") ? true : undefined));
    const ended = new Promise<void>((resolve) => client.response.on("end", () => resolve()));
    await capturing.inject({ method: "DELETE", url: `/inbox/${id}`, headers });
    await ended;
    expect(client.messages[client.messages.length - 1]).toEqual({ comment: "inbox gone" });
  });

  it("requires the gateway key and read access", async () => {
    const id = await createInbox();
    const noKey = await streaming.inject({ method: "GET", url: `/inbox/${id}/stream` });
    expect(noKey.statusCode).toBe(401);
    const missing = await streaming.inject({ method: "GET", url: "/inbox/5b0c8a3e-1d6f-4c2a-9e8b-1f2a3b4c5d6e/stream", headers });
    expect(missing.statusCode).toBe(404);
  });
});
