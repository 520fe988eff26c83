import { Server as NetServer, type Socket } from "node:net";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import proxyAddr from "@fastify/proxy-addr";
import type { FastifyBaseLogger } from "fastify";
import { describeServerSpan, serveInSpan, tracing } from "@apiplat/tracing";
import { errorEnvelope } from "@apiplat/errors";
import type { LatencyHistogram } from "./latency-histogram.js";
import { requestIdFor } from "./request-id.js";

/** Whether a proxy at this address (and this hop) may set X-Forwarded-*; Fastify's and the front door's shared rule. */
export type TrustProxyFn = (address: string, hop: number) => boolean;

/** The same trust Fastify derives from its `trustProxy` option (false, true, or a comma-separated list of CIDRs). */
export function trustProxyFunction(trustProxy: boolean | string): TrustProxyFn {
  if (trustProxy === true) return () => true;
  if (trustProxy === false || trustProxy === "") return () => false;
  return proxyAddr.compile(trustProxy.split(",").map((value) => value.trim()));
}

/** A request as the front door sees it: its client address and host name read as Fastify's `request.ip` and `request.hostname`. */
export class FrontRequest {
  constructor(
    readonly raw: IncomingMessage,
    private readonly trust: TrustProxyFn,
  ) {}

  get method(): string {
    return this.raw.method ?? "";
  }

  get headers(): IncomingHttpHeaders {
    return this.raw.headers;
  }

  /** The path without its query string. */
  get path(): string {
    const url = this.raw.url ?? "";
    const query = url.indexOf("?");
    return query < 0 ? url : url.slice(0, query);
  }

  get ip(): string {
    // Without the header proxy-addr would return just the socket's address; this skips building its list.
    if (this.raw.headers["x-forwarded-for"] === undefined) return this.raw.socket?.remoteAddress ?? "";
    const addresses = proxyAddr.all(this.raw, this.trust);
    return addresses[addresses.length - 1] ?? "";
  }

  get hostname(): string {
    const socket = this.raw.socket;
    const forwarded = this.raw.headers["x-forwarded-host"];
    const host = forwarded && socket?.remoteAddress !== undefined && this.trust(socket.remoteAddress, 0) ? lastEntry(forwarded) : (this.raw.headers.host ?? "");
    return host[0] === "[" ? host.slice(0, host.indexOf("]") + 1) : host.split(":", 1)[0];
  }
}

function lastEntry(header: string | string[]): string {
  const value = Array.isArray(header) ? header[header.length - 1] : header;
  const comma = value.lastIndexOf(",");
  return (comma < 0 ? value : value.slice(comma + 1)).trim();
}

/** How long connections without a request may stay open once the instance begins to stop. */
const IDLE_CLOSE_GRACE_MS = 1_000;

function closeIdleWhenNoneFresh(server: Server, fresh: ReadonlySet<Socket>, deadline: number): void {
  if (fresh.size === 0 || Date.now() >= deadline) server.closeIdleConnections();
  else setTimeout(() => closeIdleWhenNoneFresh(server, fresh, deadline), 10).unref();
}

/** The server settings Fastify passes to its `serverFactory` with its defaults filled in. */
interface ServerTimeouts {
  keepAliveTimeout: number;
  requestTimeout: number;
  connectionTimeout: number;
  maxRequestsPerSocket: number;
}

/** What a front route answers: written by the platform with the request's X-Request-Id and a Content-Length. */
export interface FrontAnswer {
  status: number;
  headers: Record<string, string>;
  body?: string;
  /**
   * Work the answer depends on (e.g. a click made durable): the answer is written once it resolves; if it rejects, the
   * client gets a 503 and the answer is not sent.
   */
  ready?: Promise<unknown>;
}

/** The shared error envelope's 503, for a front answer whose `ready` failed. */
function unavailable(raw: IncomingMessage): FrontAnswer {
  const message = "The request could not be completed right now; retry in a moment.";
  return {
    status: 503,
    headers: { "content-type": "application/json; charset=utf-8", "retry-after": "1", "cache-control": "no-store" },
    body: JSON.stringify(errorEnvelope("UNAVAILABLE", message, requestIdFor(raw))),
  };
}

/**
 * Answers a request from memory before Fastify routes it, or returns null to leave it to Fastify. For a service's
 * one hot public path (a redirect served from an in-process cache), where Fastify's request pipeline would be a
 * large share of the cost.
 */
export type FrontHandler = (request: FrontRequest) => FrontAnswer | null;

export interface FrontRoute {
  /** The route it stands in front of, for the latency histogram's `route` label (e.g. "/:code"). */
  route: string;
  handler: FrontHandler;
}

/**
 * The HTTP server of an app, with room for front routes. A request a front route answers gets what the platform
 * gives every request (an X-Request-Id, a latency observation under the route's label); any other, and any request
 * a front route throws on, goes to Fastify unchanged.
 */
export class FrontDoor {
  private readonly routes: FrontRoute[] = [];
  latency: LatencyHistogram | null = null;
  log: FastifyBaseLogger | null = null;
  /** The app's name, on the spans of the requests front routes answer. */
  service: string | null = null;

  /** headersTimeoutMs: how long a client may take to send its request headers. */
  constructor(
    readonly trust: TrustProxyFn,
    private readonly headersTimeout = 0,
  ) {}

  add(route: FrontRoute): void {
    this.routes.push(route);
  }

  /** Fastify's `serverFactory`: the server Fastify would make (its timeouts included), with the front routes first. */
  readonly serverFactory = (fastifyHandler: (request: IncomingMessage, response: ServerResponse) => void, options: ServerTimeouts): Server => {
    // Node checks the header and request deadlines on this interval: a second keeps a slow client's overrun short.
    const serve = (request: IncomingMessage, response: ServerResponse) => {
      if (this.routes.length === 0 || !this.answer(request, response)) fastifyHandler(request, response);
    };
    let closing = false;
    const server = createServer({ connectionsCheckingInterval: 1_000 }, (request, response) => {
      // While the instance stops, every answer ends its connection: a keep-alive client or proxy reconnects to
      // another replica instead of reusing a socket about to be closed.
      if (closing) response.setHeader("connection", "close");
      if (tracing.on) serveInSpan(request, response, () => serve(request, response));
      else serve(request, response);
    });
    server.keepAliveTimeout = options.keepAliveTimeout;
    server.requestTimeout = options.requestTimeout;
    if (this.headersTimeout) server.headersTimeout = Math.min(this.headersTimeout, options.requestTimeout || Infinity);
    server.setTimeout(options.connectionTimeout);
    if (options.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    // Connections accepted whose first request has not arrived yet: the proxy may already have sent it.
    const fresh = new Set<Socket>();
    server.on("connection", (socket: Socket) => {
      fresh.add(socket);
      socket.once("close", () => fresh.delete(socket));
    });
    server.on("request", (request: IncomingMessage) => fresh.delete(request.socket));
    server.close = ((callback?: (error?: Error) => void) => {
      closing = true;
      // Node's own close drops every connection without a request in progress, a just-accepted one whose request is
      // still on its way included, and a proxy does not send a POST it has sent elsewhere. Only the listener closes
      // now; the idle connections close once the fresh ones have their request, or after a grace period.
      closeIdleWhenNoneFresh(server, fresh, Date.now() + IDLE_CLOSE_GRACE_MS);
      return NetServer.prototype.close.call(server, callback);
    }) as Server["close"];
    return server;
  };

  private answer(raw: IncomingMessage, response: ServerResponse): boolean {
    const started = performance.now();
    const request = new FrontRequest(raw, this.trust);
    for (const { route, handler } of this.routes) {
      let answer: FrontAnswer | null;
      try {
        answer = handler(request);
      } catch (error) {
        this.log?.error({ err: error, route }, "front route failed; Fastify answers instead");
        continue;
      }
      if (answer === null) continue;
      if (answer.ready) {
        const written = answer;
        answer.ready.then(
          () => this.write(raw, response, written, route, request.method, started),
          (error: unknown) => {
            this.log?.error({ err: error, route }, "front route's answer could not be completed");
            this.write(raw, response, unavailable(raw), route, request.method, started);
          },
        );
      } else this.write(raw, response, answer, route, request.method, started);
      return true;
    }
    return false;
  }

  private write(raw: IncomingMessage, response: ServerResponse, answer: FrontAnswer, route: string, method: string, started: number): void {
    const body = answer.body ?? "";
    const requestId = requestIdFor(raw);
    if (tracing.on && this.service) describeServerSpan(raw, { service: this.service, route, requestId });
    response.writeHead(answer.status, {
      "x-request-id": requestId,
      ...answer.headers,
      "content-length": String(Buffer.byteLength(body)),
    });
    response.end(body);
    this.latency?.observe(method, route, answer.status, (performance.now() - started) / 1000);
  }
}
