import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, TEST_DATABASE_URL, type TestPlatform } from "@apiplat/testing";
import { CaptureServer, TEST_SECRET } from "./helpers.js";

/**
 * Nothing accepted is lost: the service runs as its own process (tsx src/main.ts), accepts a message, and is killed
 * with SIGKILL while the relay holds the message mid-transaction. After a restart the message arrives exactly once.
 */

const serviceDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

let platform: TestPlatform;
let capture: CaptureServer;
let child: ChildProcess | null = null;
let port = 0;
let env: Record<string, string>;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startChild(): Promise<void> {
  // node itself with tsx's loader, so that the pid killed is the service's (the tsx launcher would leave it running).
  child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: serviceDir,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("the service did not start");
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function killChild(): Promise<void> {
  const running = child;
  child = null;
  if (!running || running.exitCode !== null) return;
  const exited = new Promise((resolve) => running.once("exit", resolve));
  running.kill("SIGKILL");
  await exited;
}

beforeAll(async () => {
  platform = await createTestPlatform();
  capture = new CaptureServer();
  await capture.start();
  const { rows } = await platform.deps.db.query<{ schema: string }>("SELECT current_schema() AS schema");
  port = await freePort();
  env = {
    DATABASE_URL: `${TEST_DATABASE_URL}?options=${encodeURIComponent(`-c search_path=${rows[0].schema}`)}`,
    REDIS_URL: "",
    BIND_ADDRESS: "127.0.0.1",
    EMAIL_SENDING_PORT: String(port),
    SMTP_URL: capture.url,
    EMAIL_SECRET: TEST_SECRET,
    EMAIL_INBOUND_PORT: "0",
    EMAIL_INBOUND_HOST: "127.0.0.1",
    EMAIL_OUTBOX_DIR: mkdtempSync(path.join(tmpdir(), "email-crash-")),
    EMAIL_LEASE_MS: "2000",
    EMAIL_POLL_MS: "50",
    LOG_LEVEL: "warn",
  };
}, 120_000);

afterAll(async () => {
  await killChild();
  await capture.stop();
  await platform.close();
});

describe("crash safety", () => {
  it("delivers a message accepted before a kill -9 exactly once after the restart", { timeout: 120_000 }, async () => {
    const subscriber = await platform.subscribe("email-sending", "PRO");
    await startChild();
    capture.stall = true;
    const res = await fetch(`http://127.0.0.1:${port}/send`, {
      method: "POST",
      headers: { ...subscriber.headers, "content-type": "application/json" },
      body: JSON.stringify({ to: "survivor@example.com", subject: "Durable", html: "<p>still here</p>" }),
    });
    expect(res.status).toBe(202);
    const { id } = ((await res.json()) as { data: { id: string } }).data;

    // The relay has the whole message but holds back its 250: the process dies mid-delivery.
    for (let i = 0; i < 200 && capture.stalled === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(capture.stalled).toBe(1);
    await killChild();
    // The dead process's connection is gone: the port is free and nothing answers /health.
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
    expect(capture.messages).toHaveLength(0);

    capture.stall = false;
    await startChild();
    await capture.waitFor(capture.withEmailId(id), 30_000);
    // Longer than a lease: no second copy comes.
    await new Promise((r) => setTimeout(r, 3_000));
    const copies = capture.messages.filter(capture.withEmailId(id));
    expect(copies, `copies received at ${copies.map((m) => new Date(m.receivedAt).toISOString()).join(", ")}`).toHaveLength(1);

    const message = await fetch(`http://127.0.0.1:${port}/messages/${id}`, { headers: subscriber.headers });
    const data = ((await message.json()) as { data: { status: string; attempts: number; events: { type: string }[] } }).data;
    expect(data.status).toBe("sent");
    expect(data.attempts).toBe(2);
    expect(data.events.map((e) => e.type)).toEqual(["queued", "sent"]);
  });
});
