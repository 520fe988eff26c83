import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startForwardProxy, type ForwardProxy, type ProxyRefusal } from "../src/index.js";

/** An HTTP server that counts every TCP connection it accepts, whatever comes over it. */
interface Target {
  port: number;
  connections: () => number;
  lastHeaders: () => IncomingHttpHeaders | undefined;
  close: () => Promise<void>;
}

async function startTarget(host: string): Promise<Target> {
  let connections = 0;
  let lastHeaders: IncomingHttpHeaders | undefined;
  const server: Server = createServer((req, res) => {
    lastHeaders = req.headers;
    res.writeHead(200, { "content-type": "text/plain", connection: "close" }).end(`hello ${req.method} ${req.url}`);
  });
  server.on("connection", () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    lastHeaders: () => lastHeaders,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface ProxyAnswer {
  status: number;
  body: string;
  headers: IncomingHttpHeaders;
}

/** A plain proxied request: the absolute URL as the request target, sent to the proxy. */
function proxiedGet(proxy: ForwardProxy, url: string): Promise<ProxyAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: proxy.port, path: url, headers: { host: "proxied.test" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** CONNECT host:port; resolves with the proxy's status and, when 200, the tunnel's socket. */
function connectThrough(proxy: ForwardProxy, authority: string): Promise<{ status: number; socket: Socket; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: proxy.port, method: "CONNECT", path: authority });
    req.on("connect", (res, socket, head) => {
      if (res.statusCode === 200) return resolve({ status: 200, socket, body: "" });
      const chunks: Buffer[] = [head];
      socket.on("data", (c: Buffer) => chunks.push(c));
      socket.on("close", () => resolve({ status: res.statusCode ?? 0, socket, body: Buffer.concat(chunks).toString() }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** An HTTP/1.1 GET written by hand into an open tunnel. */
function getOverTunnel(socket: Socket, host: string): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("close", () => resolve(Buffer.concat(chunks).toString()));
    socket.write(`GET /through-tunnel HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
  });
}

const REFUSAL = /is a private, loopback, link-local or metadata address, which the outbound guard refuses/;

let v4: Target;
let v6: Target;
let proxies: ForwardProxy[] = [];

beforeAll(async () => {
  // Connections to 0.0.0.0 and [::] land on these loopback listeners, so a leak would be counted here.
  v4 = await startTarget("127.0.0.1");
  v6 = await startTarget("::1");
});
afterEach(async () => {
  await Promise.all(proxies.map((p) => p.close()));
  proxies = [];
});
afterAll(async () => {
  await v4.close();
  await v6.close();
});

async function proxy(allowCidrs: string[] = [], refusals: ProxyRefusal[] = []): Promise<ForwardProxy> {
  const started = await startForwardProxy({ allowCidrs, onRefused: (r) => refusals.push(r) });
  proxies.push(started);
  return started;
}

describe("forward proxy with the allow-list off", () => {
  const targets = () => [
    `127.0.0.1:${v4.port}`,
    `0.0.0.0:${v4.port}`,
    `localhost:${v4.port}`,
    `[::]:${v6.port}`,
    `[::1]:${v6.port}`,
    `[::ffff:127.0.0.1]:${v4.port}`,
  ];

  it("listens on 127.0.0.1 on a port of its own", async () => {
    const started = await proxy();
    expect(started.port).toBeGreaterThan(0);
    expect(started.url).toBe(`http://127.0.0.1:${started.port}`);
  });

  it("refuses plain requests to loopback, 0.0.0.0 and [::] with a 403 and makes no connection", async () => {
    const refusals: ProxyRefusal[] = [];
    const started = await proxy([], refusals);
    const before = v4.connections() + v6.connections();
    for (const authority of targets()) {
      const answer = await proxiedGet(started, `http://${authority}/secret`);
      expect(answer.status, authority).toBe(403);
      expect(answer.body).toMatch(REFUSAL);
    }
    expect(v4.connections() + v6.connections()).toBe(before);
    // As the URL parser writes them.
    expect(refusals.map((r) => r.target)).toEqual(targets().map((t) => t.replace("[::ffff:127.0.0.1]", "[::ffff:7f00:1]")));
    expect(refusals.every((r) => r.method === "GET")).toBe(true);
  });

  it("refuses CONNECT tunnels to the same addresses with a 403 and makes no connection", async () => {
    const refusals: ProxyRefusal[] = [];
    const started = await proxy([], refusals);
    const before = v4.connections() + v6.connections();
    for (const authority of targets()) {
      const answer = await connectThrough(started, authority);
      expect(answer.status, authority).toBe(403);
      expect(answer.body).toMatch(REFUSAL);
    }
    expect(v4.connections() + v6.connections()).toBe(before);
    expect(refusals).toHaveLength(targets().length);
    expect(refusals.every((r) => r.method === "CONNECT")).toBe(true);
  });

  it("refuses a CONNECT without a port, and a request that is not in absolute form, with a 400", async () => {
    const started = await proxy(["127.0.0.0/8"]);
    expect((await connectThrough(started, "127.0.0.1")).status).toBe(400);
    expect((await connectThrough(started, `user@127.0.0.1:${v4.port}`)).status).toBe(400);
    expect((await proxiedGet(started, "/relative")).status).toBe(400);
    expect((await proxiedGet(started, `ftp://127.0.0.1:${v4.port}/`)).status).toBe(400);
  });
});

describe("forward proxy with loopback allow-listed", () => {
  it("forwards a plain request, dropping hop-by-hop headers and saying Via", async () => {
    const started = await proxy(["127.0.0.0/8"]);
    const answer = await proxiedGet(started, `http://127.0.0.1:${v4.port}/page?x=1`);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe("hello GET /page?x=1");
    expect(answer.headers.via).toBe("1.1 apiplat-outbound-guard");
    expect(v4.lastHeaders()?.via).toBe("1.1 apiplat-outbound-guard");
    expect(v4.lastHeaders()?.host).toBe(`127.0.0.1:${v4.port}`);
  });

  it("opens a CONNECT tunnel that carries bytes both ways", async () => {
    const started = await proxy(["127.0.0.0/8"]);
    const tunnel = await connectThrough(started, `127.0.0.1:${v4.port}`);
    expect(tunnel.status).toBe(200);
    const answer = await getOverTunnel(tunnel.socket, `127.0.0.1:${v4.port}`);
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(answer).toContain("hello GET /through-tunnel");
  });

  it("still refuses what the allow-list does not cover ([::1] with only 127.0.0.0/8 listed)", async () => {
    const started = await proxy(["127.0.0.0/8"]);
    const before = v6.connections();
    expect((await connectThrough(started, `[::1]:${v6.port}`)).status).toBe(403);
    expect((await proxiedGet(started, `http://[::1]:${v6.port}/`)).status).toBe(403);
    expect(v6.connections()).toBe(before);
  });

  it("answers 502 when the allowed address does not accept the connection", async () => {
    const started = await proxy(["127.0.0.0/8"]);
    const closed = await startTarget("127.0.0.1");
    await closed.close();
    expect((await connectThrough(started, `127.0.0.1:${closed.port}`)).status).toBe(502);
    expect((await proxiedGet(started, `http://127.0.0.1:${closed.port}/`)).status).toBe(502);
  });
});

describe("forward proxy on a Unix socket", () => {
  it("answers there as on its TCP port, from a socket only its owner may use, removed on close", async () => {
    const dir = await mkdtemp(join(tmpdir(), "proxy-test-"));
    const socketPath = join(dir, "proxy.sock");
    const started = await startForwardProxy({ allowCidrs: ["127.0.0.0/8"], socketPath });
    expect(started.socketPath).toBe(socketPath);
    expect((await stat(socketPath)).mode & 0o777).toBe(0o600);
    const viaSocket = (authority: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ socketPath, method: "CONNECT", path: authority });
        req.on("connect", (res, socket) => {
          socket.destroy();
          resolve(res.statusCode ?? 0);
        });
        req.on("error", reject);
        req.end();
      });
    expect(await viaSocket(`127.0.0.1:${v4.port}`)).toBe(200);
    expect(await viaSocket(`[::1]:${v6.port}`)).toBe(403);
    await started.close();
    await expect(stat(socketPath)).rejects.toThrow();
    await rm(dir, { recursive: true });
  });
});

describe("forward proxy Upgrade requests (ws:// without CONNECT)", () => {
  /** Sends an absolute-form Upgrade request to the proxy; resolves with the status line it answers. */
  function upgradeThrough(proxy: ForwardProxy, url: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const req = request({
        host: "127.0.0.1",
        port: proxy.port,
        path: url,
        headers: { host: new URL(url).host, connection: "Upgrade", upgrade: "websocket" },
      });
      req.on("upgrade", (res, socket) => {
        socket.destroy();
        resolve(`${res.statusCode} ${res.headers.via ?? ""}`.trim());
      });
      req.on("response", (res) => {
        res.resume();
        resolve(String(res.statusCode));
      });
      req.on("error", reject);
      req.end();
    });
  }

  it("replays an allowed one to the checked address and refuses the rest without connecting", async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer();
    server.on("upgrade", (req: IncomingMessage, socket: Socket) => {
      seen.push(req.headers);
      socket.end("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nVia: 1.1 target\r\n\r\n");
    });
    let connections = 0;
    server.on("connection", () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      expect(await upgradeThrough(await proxy(), `http://127.0.0.1:${port}/socket`)).toBe("403");
      expect(connections).toBe(0);
      expect(await upgradeThrough(await proxy(["127.0.0.0/8"]), `http://127.0.0.1:${port}/socket`)).toBe("101 1.1 target");
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({ upgrade: "websocket", via: "1.1 apiplat-outbound-guard", host: `127.0.0.1:${port}` });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
