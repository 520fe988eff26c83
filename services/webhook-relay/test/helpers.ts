import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { createTestPlatform, startService, type StartedService, type TestPlatform } from "@apiplat/testing";
import type { ServiceApp } from "@apiplat/service-kit";
import relayService from "../src/service.js";
import type { RelaySettings } from "../src/settings.js";

export const HOST = "webhook-relay.api.local";

/** Retries in milliseconds instead of seconds, so that a test sees the whole schedule. */
export const FAST_RELAY: Partial<RelaySettings> = {
  pollIntervalMs: 20,
  keepAliveMs: 200,
  forwardTimeoutMs: 2_000,
  retryPolicy: { baseDelaysMs: [30, 60, 90, 120, 150, 180, 210], jitterFraction: 0, maxRetryAfterMs: 6 * 60 * 60 * 1000 },
  hooksUrl: "https://hooks.test/h",
  // These tests send bursts to one inbox on purpose; the per-inbox limit has tests of its own (limits.test.ts).
  captureRate: { perSecond: 1_000_000, burst: 1_000_000 },
};

/** Destinations in these tests listen on loopback. */
const TEST_ENV = { OUTBOUND_ALLOW_CIDRS: "127.0.0.0/8" };

export async function testPlatform(options: { now?: () => Date } = {}): Promise<TestPlatform> {
  return createTestPlatform({ env: TEST_ENV, now: options.now });
}

export interface RelayUnderTest {
  readonly app: ServiceApp;
  readonly platform: TestPlatform;
  /** A MEGA subscriber's gateway headers. */
  readonly headers: Record<string, string>;
}

/** Starts the relay with FAST_RELAY and subscribes a MEGA caller before the file's tests; closes both after them. */
export function relayUnderTest(): RelayUnderTest {
  let started: StartedService | undefined;
  let headers: Record<string, string> | undefined;
  beforeAll(async () => {
    started = await startService(relayService, { env: TEST_ENV, settings: FAST_RELAY });
    ({ headers } = await started.subscribe("MEGA"));
  });
  afterAll(() => started?.close());
  return {
    get app() {
      return started!.app;
    },
    get platform() {
      return started!.platform;
    },
    get headers() {
      return headers!;
    },
  };
}

export interface ReceivedRequest {
  method: string;
  url: string;
  rawHeaders: string[];
  headers: IncomingMessage["headers"];
  body: Buffer;
  at: number;
}

/** A real HTTP destination on loopback that records what it receives and answers from a script. */
export class Destination {
  readonly received: ReceivedRequest[] = [];
  private readonly server: Server;
  private waiters: { count: number; resolve: () => void }[] = [];
  /** Status codes to answer in order; once used up, 200. */
  script: number[] = [];
  /** How long to wait before answering. */
  delayMs = 0;

  constructor() {
    this.server = createServer((req, res) => this.handle(req, res));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      this.received.push({ method: req.method!, url: req.url!, rawHeaders: req.rawHeaders, headers: req.headers, body: Buffer.concat(chunks), at: Date.now() });
      const status = this.script.shift() ?? 200;
      const count = this.received.length;
      setTimeout(() => res.writeHead(status, { "content-type": "text/plain" }).end(`answer ${count} status ${status}`), this.delayMs);
      this.waiters = this.waiters.filter((w) => {
        if (this.received.length >= w.count) w.resolve();
        return this.received.length < w.count;
      });
    });
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Resolves once `count` requests have arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs = 5_000): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`destination got ${this.received.length} of ${count} requests`)), timeoutMs);
      this.waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

// Polls a probe until the service did its background work: the one in @apiplat/testing.
export { until } from "@apiplat/testing";
