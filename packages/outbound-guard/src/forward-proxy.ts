import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { chmod } from "node:fs/promises";
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect, isIP, type AddressInfo, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { AddressPolicy } from "./address-policy.js";

export interface ForwardProxyOptions {
  /** CIDRs that may be reached although private or loopback, as for the outbound client (OUTBOUND_ALLOW_CIDRS). */
  allowCidrs?: readonly string[];
  /** Longest wait for the upstream TCP connection (default 10 s). */
  connectTimeoutMs?: number;
  /** A tunnel or request with no traffic for this long is closed (default 60 s). */
  idleTimeoutMs?: number;
  /**
   * Also listen on this Unix socket (made 0600), for a client in another network namespace, whose only way out
   * is then a relay to this socket.
   */
  socketPath?: string;
  /** Told of every refused request or tunnel: a browser trying to leave is worth a log line. */
  onRefused?: (refusal: ProxyRefusal) => void;
}

export interface ProxyRefusal {
  /** "CONNECT" for tunnels (https, WebSocket, TURN over TCP), otherwise the HTTP method. */
  method: string;
  /** host:port the client asked for. */
  target: string;
  reason: string;
}

export interface ForwardProxy {
  /** The port on 127.0.0.1. */
  port: number;
  /** "http://127.0.0.1:<port>", the form `--proxy-server` takes. */
  url: string;
  /** The Unix socket it also listens on, when asked for one. */
  socketPath?: string;
  close(): Promise<void>;
}

/** Said in the Via header of every forwarded request and response (RFC 9110 7.6.3). */
const VIA = "1.1 apiplat-outbound-guard";
const HOP_HEADERS = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);
const DEFAULTS = { connectTimeoutMs: 10_000, idleTimeoutMs: 60_000 };

type Verdict = { allowed: true; address: string; family: number } | { allowed: false; status: number; reason: string };

/** The three ways a client asks the proxy for a connection, each checked against the policy before any is made. */
class GuardedProxy {
  readonly sockets = new Set<Duplex>();
  private readonly policy: AddressPolicy;
  private readonly limits: typeof DEFAULTS;

  constructor(private readonly options: ForwardProxyOptions) {
    this.policy = new AddressPolicy(options.allowCidrs);
    this.limits = { ...DEFAULTS, ...options };
  }

  readonly track = (socket: Duplex): void => {
    this.sockets.add(socket);
    socket.once("close", () => this.sockets.delete(socket));
  };

  /** The target's checked address, or null once the refusal was reported and `answer`ed. */
  private async checked(method: string, target: { hostname: string; host: string }, answer: (status: number, reason: string) => void) {
    const verdict = await judge(target.hostname, this.policy);
    if (verdict.allowed) return verdict;
    this.options.onRefused?.({ method, target: target.host, reason: verdict.reason });
    answer(verdict.status, verdict.reason);
    return null;
  }

  /** A plain request in absolute form, forwarded to the checked address. */
  async forwardRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = absoluteTarget(req.url);
    if (!target) return void res.writeHead(400, { "content-type": "text/plain" }).end("Only absolute http:// URLs can be proxied.\n");
    const verdict = await this.checked(req.method ?? "GET", target, (status, reason) =>
      res.writeHead(status, { "content-type": "text/plain" }).end(`${reason}\n`),
    );
    if (!verdict) return;
    const upstream = httpRequest({
      host: verdict.address,
      family: verdict.family,
      port: target.port || 80,
      method: req.method,
      path: `${target.pathname}${target.search}`,
      headers: { ...endToEndHeaders(req.headers), host: target.host, via: VIA },
      agent: false,
      timeout: this.limits.connectTimeoutMs,
    });
    upstream.on("timeout", () => upstream.destroy(new Error("upstream timed out")));
    upstream.on("response", (answer) => {
      upstream.setTimeout(this.limits.idleTimeoutMs);
      res.writeHead(answer.statusCode ?? 502, { ...endToEndHeaders(answer.headers), via: VIA });
      answer.pipe(res);
    });
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" }).end(`Could not reach ${target.host}.\n`);
      else res.destroy();
    });
    req.pipe(upstream);
  }

  /** A CONNECT tunnel (https, wss, TURN over TCP) to the checked address. */
  async tunnel(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    this.adopt(client);
    const target = authorityTarget(req.url);
    if (!target) return answerRaw(client, 400, "CONNECT needs host:port.");
    const verdict = await this.checked("CONNECT", target, (status, reason) => answerRaw(client, status, reason));
    if (!verdict) return;
    this.splice(client, verdict.address, target.port, target.host, (upstream) => {
      client.write("HTTP/1.1 200 Connection Established\r\nVia: " + VIA + "\r\n\r\n");
      if (head.length > 0) upstream.write(head);
    });
  }

  /** ws:// through a proxy without CONNECT: the request head is replayed to the checked address, then spliced. */
  async upgrade(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    this.adopt(client);
    const target = absoluteTarget(req.url);
    if (!target) return answerRaw(client, 400, "Only absolute http:// URLs can be proxied.");
    const verdict = await this.checked(req.method ?? "GET", target, (status, reason) => answerRaw(client, status, reason));
    if (!verdict) return;
    this.splice(client, verdict.address, Number(target.port || 80), target.host, (upstream) => {
      const headers = { ...endToEndHeaders(req.headers), host: target.host, connection: "Upgrade", upgrade: req.headers.upgrade ?? "websocket", via: VIA };
      const lines = Object.entries(headers).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => `${name}: ${v}`));
      upstream.write(`${req.method} ${target.pathname}${target.search} HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
    });
  }

  private adopt(client: Duplex): void {
    this.track(client);
    client.on("error", () => client.destroy());
  }

  /**
   * Opens a TCP connection to the checked address; once it is up, `onOpen` starts the conversation and the two
   * sockets are joined. A connection that fails first is a 502 to the client.
   */
  private splice(client: Duplex, address: string, port: number, host: string, onOpen: (upstream: Socket) => void): void {
    const upstream = connect({ host: address, port });
    this.track(upstream);
    let open = false;
    upstream.setTimeout(this.limits.connectTimeoutMs, () => upstream.destroy());
    upstream.once("connect", () => {
      open = true;
      upstream.setTimeout(this.limits.idleTimeoutMs, () => upstream.destroy());
      onOpen(upstream);
      client.on("error", () => upstream.destroy());
      upstream.on("error", () => client.destroy());
      client.once("close", () => upstream.destroy());
      upstream.once("close", () => client.destroy());
      client.pipe(upstream).pipe(client);
    });
    const onFail = () => {
      if (!open) answerRaw(client, 502, `Could not reach ${host}.`);
    };
    upstream.once("error", onFail);
    upstream.once("close", onFail);
  }
}

/**
 * A forward HTTP proxy on 127.0.0.1 for software that opens connections itself (a headless browser): plain
 * requests in absolute form, CONNECT tunnels (https, wss, TURN over TCP) and Upgrade requests. The host of each
 * is resolved here, every address must pass the outbound guard's AddressPolicy, and the connection goes to the
 * address that was checked, so a DNS answer that changes in between cannot reach a refused address. A refusal is a
 * 403 and no upstream connection is attempted. Point the client at it and make the proxy its only route out (for
 * Chromium: --proxy-server plus --proxy-bypass-list=<-loopback>).
 */
export async function startForwardProxy(options: ForwardProxyOptions = {}): Promise<ForwardProxy> {
  const proxy = new GuardedProxy(options);
  const servers = [createServer(), ...(options.socketPath ? [createServer()] : [])];
  for (const server of servers) {
    server.on("request", (req, res) => void proxy.forwardRequest(req, res));
    server.on("connect", (req, socket, head) => void proxy.tunnel(req, socket, head));
    server.on("upgrade", (req, socket, head) => void proxy.upgrade(req, socket, head));
    server.on("connection", proxy.track);
    server.headersTimeout = 10_000;
    server.requestTimeout = 0;
  }
  const [tcp, unix] = servers;
  await listen(tcp, (server, done) => server.listen(0, "127.0.0.1", done));
  if (unix && options.socketPath) {
    const path = options.socketPath;
    await listen(unix, (server, done) => server.listen(path, done));
    await chmod(path, 0o600);
  }
  const { port } = tcp.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    socketPath: options.socketPath,
    close: async () => {
      const closed = servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())));
      for (const socket of proxy.sockets) socket.destroy();
      await Promise.all(closed);
    },
  };
}

function listen(server: Server, start: (server: Server, done: () => void) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    start(server, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** Resolves the host and checks every address it has; the connection is then made to the first of them. */
async function judge(hostname: string, policy: AddressPolicy): Promise<Verdict> {
  const host = hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: LookupAddress[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await resolveAll(host);
    } catch {
      return { allowed: false, status: 502, reason: `${host} does not resolve.` };
    }
  }
  if (addresses.length === 0 || addresses.some((a) => !policy.allows(a.address))) {
    return { allowed: false, status: 403, reason: `${host} is a private, loopback, link-local or metadata address, which the outbound guard refuses.` };
  }
  return { allowed: true, address: addresses[0].address, family: addresses[0].family };
}

function resolveAll(hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });
}

/** "http://host:port/path" as a proxy request carries it; https and other schemes go through CONNECT or nowhere. */
function absoluteTarget(raw: string | undefined): URL | null {
  try {
    const url = new URL(raw ?? "");
    return url.protocol === "http:" || url.protocol === "ws:" ? url : null;
  } catch {
    return null;
  }
}

interface Authority {
  /** As written, e.g. "[::1]:443". */
  host: string;
  hostname: string;
  port: number;
}

/** "host:port" (or "[v6]:port") of a CONNECT request; the port is required. */
function authorityTarget(raw: string | undefined): Authority | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:/@[\]\s]+):(\d{1,5})$/.exec(raw ?? "");
  if (!match) return null;
  const port = Number(match[2]);
  if (port < 1 || port > 65_535) return null;
  return { host: match[0], hostname: match[1], port };
}

/** Drops the headers that describe one hop, including those the Connection header names. */
function endToEndHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const named = String(headers.connection ?? "")
    .toLowerCase()
    .split(",")
    .map((h) => h.trim());
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_HEADERS.has(name) || named.includes(name)) continue;
    out[name] = value;
  }
  return out;
}

function answerRaw(socket: Duplex, status: number, reason: string): void {
  const text = { 400: "Bad Request", 403: "Forbidden", 502: "Bad Gateway" }[status] ?? "Error";
  const body = `${reason}\n`;
  socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
