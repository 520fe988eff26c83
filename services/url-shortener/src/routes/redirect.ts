import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { IncomingHttpHeaders } from "node:http";
import { errors, type FrontAnswer, type FrontRequest } from "@apiplat/service-kit";
import { isReservedCode } from "../domain/codes.js";
import type { Redirector, Visit } from "../app/redirector.js";

export interface RedirectRoutesOptions {
  redirector: Redirector;
  /** Reverse proxies in front of the service whose X-Forwarded-For entry is trusted (see settings.ts). */
  trustedProxyHops: number;
}

const NOT_FOUND_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>Link not found</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:15vh auto;padding:0 1rem;color:#222}h1{font-size:1.4rem}</style>
</head><body><h1>This short link does not exist or no longer works</h1>
<p>It may have been mistyped, expired, reached its click limit or been deleted by its owner.</p></body></html>
`;

/** What both redirect paths read from a request: Fastify's request and the front door's have these alike. */
interface VisitorRequest {
  method: string;
  hostname: string;
  ip: string;
  headers: IncomingHttpHeaders;
}

/** The client address: the socket peer, or the entry added by the nearest trusted reverse proxy. */
function clientIp(request: VisitorRequest, trustedProxyHops: number): string {
  if (trustedProxyHops === 0) return request.ip;
  const header = request.headers["x-forwarded-for"];
  const chain = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return chain[chain.length - trustedProxyHops] ?? chain[0] ?? request.ip;
}

function visitOf(request: VisitorRequest, code: string, trustedProxyHops: number): Visit {
  return {
    host: request.hostname,
    code,
    ip: clientIp(request, trustedProxyHops),
    userAgent: request.headers["user-agent"] ?? "",
    referer: request.headers.referer,
    countClick: request.method === "GET",
  };
}

function cacheControlFor(status: 301 | 302): string {
  return status === 301 ? "private, max-age=3600" : "private, no-cache";
}

/**
 * GET /{code} for a link held in the process's cache, answered before Fastify routes the request: the redirect and
 * the click kept (the answer waits for it), nothing else. Anything it does not answer (HEAD, cache misses, click-limited, expired or
 * deleted links, unknown codes) goes through the route below.
 */
function redirectFromMemory({ redirector, trustedProxyHops }: RedirectRoutesOptions, request: FrontRequest): FrontAnswer | null {
  if (request.method !== "GET") return null;
  const path = request.path;
  const code = path.slice(1);
  // A reserved word is one of the service's own paths (/health, /metrics, /docs...), never a link.
  if (path[0] !== "/" || isReservedCode(code)) return null;
  const outcome = redirector.visitFromMemory(visitOf(request, code, trustedProxyHops));
  if (outcome?.kind !== "target") return null;
  return { status: outcome.status, headers: { "cache-control": cacheControlFor(outcome.status), location: outcome.location }, ready: outcome.recorded };
}

function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? "";
  return accept.includes("text/html");
}

/** GET /{code} on the short-link host: public, unmetered, not logged per request (it is the hot path). */
export const redirectRoutes: FastifyPluginAsyncTypebox<RedirectRoutesOptions> = async (app, options) => {
  const { redirector, trustedProxyHops } = options;
  app.addFrontRoute({ route: "/:code", handler: (request) => redirectFromMemory(options, request) });
  // No params schema: any unknown or malformed code is a 404 like every other, never a 400.
  app.get<{ Params: { code: string } }>("/:code", { config: { public: true }, logLevel: "warn", schema: { hide: true } }, async (request, reply) => {
    const outcome = await redirector.visit(visitOf(request, request.params.code, trustedProxyHops)).catch((error: unknown) => {
      request.log.error({ err: error }, "redirect lookup failed");
      throw errors.unavailable("Short links cannot be looked up right now; retry in a moment.");
    });
    if (outcome.kind === "target") {
      await outcome.recorded;
      return reply.header("cache-control", cacheControlFor(outcome.status)).redirect(outcome.location, outcome.status);
    }
    if (outcome.kind === "fallback") return reply.header("cache-control", "private, no-cache").redirect(outcome.location, 302);
    if (wantsHtml(request)) return reply.code(404).type("text/html; charset=utf-8").header("cache-control", "no-store").send(NOT_FOUND_PAGE);
    throw errors.notFound(`There is no active short link with the code ${request.params.code}.`);
  });
};
