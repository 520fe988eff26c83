import { execFile, spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, type TestPlatform } from "@apiplat/testing";
import type { ServiceApp } from "@apiplat/service-kit";
import { buildService } from "@apiplat/service-kit";
import textToolkit from "@apiplat/text-toolkit";
import timeZone from "@apiplat/time-zone";

const run = promisify(execFile);
/** The docker-compose edge: its own nginx.conf and service-addresses.conf, and the files it shares with Kubernetes. */
const EDGE_FILES = ["nginx.conf", "public-domain.conf", "routing.conf", "service-addresses.conf", "edge.conf", "proxy.conf"];
const infra = path.resolve(import.meta.dirname, "..");
const repo = path.resolve(infra, "..");

describe("deployment files", () => {
  it("the nginx configuration passes nginx -t", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "nginx-check-"));
    for (const file of EDGE_FILES) copyFileSync(path.join(infra, "nginx", file), path.join(dir, file));
    const { stderr } = await run("nginx", ["-t", "-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", path.join(dir, "error.log")]);
    expect(stderr).toContain("test is successful");
  });
});

describe("the real nginx in front of running services", () => {
  let platform: TestPlatform;
  let apps: ServiceApp[];
  let nginx: ChildProcess;
  let edge: string;
  let key: string;
  /** Stands in for the webhook relay: answers with the headers nginx passed on. */
  let echo: import("node:http").Server;

  const freePort = async () => {
    const { createServer } = await import("node:net");
    return new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const port = (server.address() as AddressInfo).port;
        server.close(() => resolve(port));
      });
    });
  };

  beforeAll(async () => {
    platform = await createTestPlatform();
    apps = [await buildService(textToolkit, platform.deps), await buildService(timeZone, platform.deps)];
    const ports = [];
    for (const app of apps) {
      await app.listen({ port: 0, host: "127.0.0.1" });
      ports.push((app.server.address() as AddressInfo).port);
    }
    const account = await platform.accounts.createAccount("edge test");
    await platform.accounts.subscribe(account.id, ["text-toolkit", "time-zone"], "PRO");
    key = (await platform.accounts.createKey(account.id)).key;

    // The production routing and server blocks, with the services' loopback addresses and a free port.
    const dir = mkdtempSync(path.join(tmpdir(), "nginx-edge-"));
    const edgePort = await freePort();
    for (const file of ["public-domain.conf", "routing.conf", "edge.conf", "proxy.conf"]) copyFileSync(path.join(infra, "nginx", file), path.join(dir, file));
    const { createServer } = await import("node:http");
    echo = createServer((req, res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ headers: req.headers })));
    await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
    const echoPort = (echo.address() as AddressInfo).port;
    writeFileSync(
      path.join(dir, "service-addresses.conf"),
      // ocr: a port nothing listens on, as a service that is down.
      `map $service $service_address { default ""; text-toolkit 127.0.0.1:${ports[0]}; time-zone 127.0.0.1:${ports[1]}; ` +
        `webhook-relay 127.0.0.1:${echoPort}; ocr 127.0.0.1:${await freePort()}; }\n`,
    );
    const conf = readFileSync(path.join(infra, "nginx/nginx.conf"), "utf8")
      .replace("listen 8080 default_server;", `listen 127.0.0.1:${edgePort} default_server;`)
      .replace("worker_processes auto;", "worker_processes 1;")
      .replace(/access_log [^;]+;/, "access_log off;");
    writeFileSync(path.join(dir, "nginx.conf"), conf);
    nginx = spawn("nginx", ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", path.join(dir, "error.log"), "-g", `daemon off; pid ${dir}/nginx.pid;`], {
      stdio: "inherit",
    });
    edge = `http://127.0.0.1:${edgePort}`;
    for (let i = 0; i < 50; i++) {
      const up = await fetch(`${edge}/nginx-health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(async () => {
    nginx?.kill("SIGQUIT");
    echo?.close();
    for (const app of apps ?? []) await app.close();
    await platform?.close();
  });

  // fetch() will not send a Host header of our choosing, so these requests use node:http.
  const call = async (pathname: string, headers: Record<string, string>, body?: Buffer) => {
    const { request } = await import("node:http");
    return new Promise<{ status: number; headers: Record<string, unknown>; body: any }>((resolve, reject) => {
      const req = request(`${edge}${pathname}`, { headers, method: body ? "POST" : "GET" }, (res) => {
        let data = "";
        res.on("data", (c) => (data += c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(data) }));
      });
      req.on("error", reject);
      req.end(body);
    });
  };

  it("routes by Host", async () => {
    const res = await call("/uuid?count=2", { host: "text-toolkit.api.local", "x-gateway-key": key, "x-gateway-host": "text-toolkit.api.local" });
    expect(res.status).toBe(200);
    expect(res.body.data.uuids).toHaveLength(2);
    const tz = await call("/lookup?tz=Asia/Tokyo&at=2026-01-15T00:00:00Z", {
      host: "time-zone.api.local",
      "x-gateway-key": key,
      "x-gateway-host": "time-zone.api.local",
    });
    expect(tz.status).toBe(200);
    expect(tz.body.data).toMatchObject({ timezone: "Asia/Tokyo", utc_offset: "+09:00", abbreviation: "JST" });
  });

  it("routes by X-Gateway-Host on the shared gateway host", async () => {
    const viaGateway = (service: string) =>
      call(service === "text-toolkit" ? "/uuid" : "/lookup?tz=Europe/Paris&at=2026-07-01T12:00:00Z", {
        host: "gateway.api.local",
        "x-gateway-key": key,
        "x-gateway-host": `${service}.api.local`,
      });
    expect((await viaGateway("text-toolkit")).body.data.uuids).toHaveLength(1);
    expect((await viaGateway("time-zone")).body.data).toMatchObject({ timezone: "Europe/Paris", abbreviation: "CEST" });
  });

  it("names the client by the address it sees and drops the client's own proxy claims (TRUST_PROXY trusts only nginx)", async () => {
    const forged = {
      "x-forwarded-for": "203.0.113.7",
      "x-real-ip": "203.0.113.7",
      forwarded: "for=203.0.113.7",
      "x-forwarded-host": "evil.test",
      "x-forwarded-port": "1",
    };
    const res = await call("/h/x", { host: "webhook-relay.api.local", ...forged });
    expect(res.status).toBe(200);
    const seen = res.body.headers;
    expect(seen["x-forwarded-for"]).toBe("127.0.0.1");
    expect(seen["x-forwarded-host"]).toBe("webhook-relay.api.local");
    expect(seen["x-forwarded-proto"]).toBe("http");
    for (const name of ["x-real-ip", "forwarded", "x-forwarded-port"]) expect(seen[name], name).toBeUndefined();
  });

  it("routes the hooks host to the webhook relay", async () => {
    const res = await call("/3f1c2b4a-0000-4000-8000-000000000000", { host: "hooks.api.local" });
    expect(res.status).toBe(200);
    expect(res.body.headers.host).toBe("hooks.api.local");
  });

  it("answers an unknown gateway target with the JSON envelope", async () => {
    const res = await call("/uuid", { host: "gateway.api.local", "x-gateway-host": "nothing.api.local" });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: "error", error: { code: "NOT_FOUND" } });
  });

  it("holds each service to its own body limit and answers an oversized body in the error envelope", async () => {
    // text-toolkit takes the default (2m at the edge); webhook-relay's captures up to 10 MiB (11m).
    const threeMiB = Buffer.alloc(3 * 1024 * 1024, "a");
    const refused = await call("/hash", { host: "text-toolkit.api.local", "content-type": "application/json" }, threeMiB);
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({ status: "error", error: { code: "PAYLOAD_TOO_LARGE" } });
    const captured = await call("/3f1c2b4a-0000-4000-8000-000000000000", { host: "hooks.api.local" }, threeMiB);
    expect(captured.status).toBe(200);
    expect(captured.body.headers["content-length"]).toBe(String(threeMiB.length));
  });

  it("answers for a service that is down with 503 UNAVAILABLE and Retry-After, in the envelope", async () => {
    const res = await call("/languages", { host: "gateway.api.local", "x-gateway-host": "OCR.api.local" });
    expect(res.status).toBe(503);
    expect(res.headers["retry-after"]).toBe("5");
    expect(res.body).toMatchObject({ status: "error", error: { code: "UNAVAILABLE" } });
  });

  it("sends a look-alike of a service host to the URL shortener, not to the service it names", async () => {
    // text-toolkit.api.local.evil.test is a customer's domain like any other: the URL shortener's (not running here).
    const res = await call("/uuid", { host: "text-toolkit.api.local.evil.test" });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: "error", error: { code: "NOT_FOUND" } });
  });
});
