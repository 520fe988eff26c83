import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from "@opentelemetry/api";
import { tracer } from "./state.js";

/** Ends `span` as failed by `error`. */
function endFailed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  span.end();
}

/** Runs `work` inside a span of the current trace (a child of the active span), ending it when the work settles. */
export async function inSpan<T>(name: string, kind: SpanKind, attributes: Attributes, work: (span: Span) => Promise<T>): Promise<T> {
  const span = tracer().startSpan(name, { kind, attributes });
  try {
    const result = await context.with(trace.setSpan(context.active(), span), () => work(span));
    span.end();
    return result;
  } catch (error) {
    endFailed(span, error);
    throw error;
  }
}

// Literals a statement may carry in its text (a migration, an IN list written out): strings, numbers not part of a
// name or a $n placeholder. Values given as parameters never appear in the text.
const STRING_LITERAL = /'(?:[^']|'')*'/g;
const NUMBER_LITERAL = /(?<![\w$.])-?\d+(?:\.\d+)?(?![\w.])/g;
/** Longer statement texts are cut: a span carries what identifies the statement, not a whole migration. */
export const STATEMENT_TEXT_LIMIT = 2048;

/** The statement as a span shows it: literals replaced by `?`, whitespace collapsed, cut at STATEMENT_TEXT_LIMIT. */
export function statementText(sql: string): string {
  const text = sql.replace(STRING_LITERAL, "?").replace(NUMBER_LITERAL, "?").replace(/\s+/g, " ").trim();
  return text.length > STATEMENT_TEXT_LIMIT ? `${text.slice(0, STATEMENT_TEXT_LIMIT)}…` : text;
}

/** SELECT, INSERT, WITH…: the statement's first keyword, which names its span. */
function operationOf(sql: string): string {
  const match = /^\s*(?:--[^\n]*\n\s*)*([A-Za-z]+)/.exec(sql);
  return match ? match[1].toUpperCase() : "SQL";
}

/**
 * Whether a statement or cache call now belongs to something traced. Outside a request (a worker's poll, the usage
 * flush, a migration) it does not: each would be a trace of one span, several a second per process, that says nothing.
 */
function inTracedWork(): boolean {
  return trace.getSpan(context.active()) !== undefined;
}

/**
 * One SQL statement as a client span of the active trace: its text without values, the database system, the rows it
 * returned. Without an active span the statement just runs.
 */
export function databaseSpan<T extends { rowCount?: number | null }>(sql: string, work: () => Promise<T>): Promise<T> {
  if (!inTracedWork()) return work();
  const operation = operationOf(sql);
  return inSpan(
    operation,
    SpanKind.CLIENT,
    { "db.system.name": "postgresql", "db.operation.name": operation, "db.query.text": statementText(sql) },
    async (span) => {
      const result = await work();
      if (typeof result?.rowCount === "number") span.setAttribute("db.response.returned_rows", result.rowCount);
      return result;
    },
  );
}

/**
 * One cache call as a client span of the active trace: `operation` is the store's (admitRequest), `command` the Redis
 * command it sends. Without an active span the call just runs.
 */
export function redisSpan<T>(operation: string, command: string, work: () => Promise<T>): Promise<T> {
  if (!inTracedWork()) return work();
  return inSpan(`redis ${operation}`, SpanKind.CLIENT, { "db.system.name": "redis", "db.operation.name": command, "apiplat.cache.operation": operation }, work);
}

const TRACE_HEADERS = new Set(["traceparent", "tracestate"]);

/**
 * The headers of an outbound request with this span's `traceparent`: one a caller passed (a relayed request's own)
 * is replaced, as a proxy continuing the trace does.
 */
function withTraceHeaders(span: Span, headers: Record<string, string | string[]> = {}): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (!TRACE_HEADERS.has(name.toLowerCase())) result[name] = value;
  propagation.inject(trace.setSpan(context.active(), span), result);
  return result;
}

/** The URL as a span shows it: without its query and fragment, where a user's URL may carry a token. */
function urlWithoutQuery(raw: string): URL | null {
  try {
    const url = new URL(raw);
    url.search = "";
    url.hash = "";
    url.username = "";
    url.password = "";
    return url;
  } catch {
    return null;
  }
}

/**
 * One outbound HTTP call (redirects included) as a client span; `send` gets the headers to send, the caller's plus
 * the span's `traceparent`, and returns the final answer's status.
 */
export function outboundSpan<T extends { status: number }>(
  method: string,
  rawUrl: string,
  headers: Record<string, string | string[]> | undefined,
  send: (headers: Record<string, string | string[]>) => Promise<T>,
): Promise<T> {
  const url = urlWithoutQuery(rawUrl);
  const attributes: Attributes = { "http.request.method": method };
  if (url) {
    attributes["url.full"] = url.toString();
    attributes["server.address"] = url.hostname;
    attributes["server.port"] = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  }
  return inSpan(method, SpanKind.CLIENT, attributes, async (span) => {
    const result = await send(withTraceHeaders(span, headers));
    span.setAttribute("http.response.status_code", result.status);
    if (result.status >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
    return result;
  });
}
