import type { IncomingMessage, ServerResponse } from "node:http";
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from "@opentelemetry/api";
import { tracer } from "./state.js";

const SERVER_SPAN = Symbol("apiplat.serverSpan");
type TracedRequest = IncomingMessage & { [SERVER_SPAN]?: Span };

/**
 * Serves one request inside its server span: the trace its `traceparent` names is continued (a new one is begun
 * without it), everything `handle` starts, body events and hooks included, runs with the span active, and the span
 * ends with the answer's status when the response closes.
 */
export function serveInSpan(request: IncomingMessage, response: ServerResponse, handle: () => void): void {
  const parent = propagation.extract(ROOT_CONTEXT, request.headers);
  const method = request.method ?? "GET";
  const url = request.url ?? "/";
  const query = url.indexOf("?");
  const attributes = { "http.request.method": method, "url.path": query < 0 ? url : url.slice(0, query) };
  const span = tracer().startSpan(method, { kind: SpanKind.SERVER, attributes }, parent);
  (request as TracedRequest)[SERVER_SPAN] = span;
  const active = trace.setSpan(parent, span);
  // A body arrives in events of the socket, which would otherwise run outside the request's context.
  context.bind(active, request);
  context.bind(active, response);
  response.once("close", () => {
    span.setAttribute("http.response.status_code", response.statusCode);
    if (!response.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR, message: "the connection closed before the answer was sent" });
    else if (response.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  context.with(active, handle);
}

/** What the platform knows of a request once it is routed and authenticated. */
export interface ServedRequest {
  service: string;
  /** The route's pattern (`/replay/:id/:request_id`), not the path: one span name per route. */
  route?: string;
  requestId: string;
  accountId?: string;
  plan?: string;
}

/** Names the request's server span after its route and adds who asked; nothing when the request is not traced. */
export function describeServerSpan(request: IncomingMessage, served: ServedRequest): void {
  const span = (request as TracedRequest)[SERVER_SPAN];
  if (!span) return;
  if (served.route) {
    span.updateName(`${request.method ?? "GET"} ${served.route}`);
    span.setAttribute("http.route", served.route);
  }
  span.setAttribute("apiplat.service", served.service);
  span.setAttribute("apiplat.request_id", served.requestId);
  if (served.accountId) span.setAttribute("apiplat.account.id", served.accountId);
  if (served.plan) span.setAttribute("apiplat.plan", served.plan);
}
