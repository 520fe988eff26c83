import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import { Agent, request, type Dispatcher } from "undici";
import { ApiError, errors, isApiError } from "@apiplat/errors";
import { outboundSpan, tracing } from "@apiplat/tracing";
import { AddressPolicy } from "./address-policy.js";

/**
 * The answer was bigger than the caller's `maxBytes`: a 502 as it stands, which a caller whose limit is the user's
 * input limit (a URL to a file, say) can tell apart and answer as 413.
 */
export class ResponseTooLargeError extends ApiError {
  constructor(
    readonly host: string,
    readonly maxBytes: number,
  ) {
    super(502, "UPSTREAM_ERROR", `The response from ${host} is larger than ${maxBytes} bytes.`);
  }
}

export interface OutboundOptions {
  /** CIDRs that may be reached although private or loopback (tests, private deployments). */
  allowCidrs?: readonly string[];
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  userAgent?: string;
  /** Name resolution (the system's by default); tests pass their own so that no query leaves the machine. */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
}

export interface FetchOptions {
  method?: string;
  headers?: Record<string, string | string[]>;
  body?: Buffer | string;
  timeoutMs?: number;
  maxBytes?: number;
  /** 0 returns redirects as they are. */
  maxRedirects?: number;
  /** The request field that held the URL, named in errors (default "url"). */
  field?: string;
}

export interface FetchResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** The URL that answered, after redirects. */
  url: string;
}

export interface OutboundClient {
  /**
   * Refuses (ApiError 400 naming the field) a URL that is not http(s) or resolves to an address that may not be
   * reached; a host name that does not resolve at all is an upstream failure (502 UPSTREAM_ERROR).
   */
  check(url: string, field?: string): Promise<URL>;
  fetch(url: string, options?: FetchOptions): Promise<FetchResult>;
  close(): Promise<void>;
}

const DEFAULTS = { timeoutMs: 10_000, maxBytes: 10 * 1024 * 1024, maxRedirects: 5 };
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

class BlockedAddressError extends Error {
  constructor(readonly host: string) {
    super(`${host} resolves to an address that may not be reached`);
  }
}

function refused(field: string, issue: string): ApiError {
  return errors.validation(field, issue);
}

function systemResolve(hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });
}

/**
 * "[::1]" -> "::1": URL keeps IPv6 literals in brackets. "localhost." -> "localhost": a fully qualified name with its
 * root dot is the same host, and the hosts file only knows it without the dot.
 */
function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");
}

type Resolver = (hostname: string) => Promise<LookupAddress[]>;

/** The agent's DNS lookup: an answer with any address the policy refuses fails the connection. */
function guardedLookup(policy: AddressPolicy, resolveAll: Resolver) {
  return (hostname: string, lookupOptions: { all?: boolean }, callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    resolveAll(hostname).then(
      (addresses) => {
        const allowed = addresses.filter((a) => policy.allows(a.address));
        if (allowed.length !== addresses.length || allowed.length === 0) return callback(new BlockedAddressError(hostname), "");
        if (lookupOptions.all) return callback(null, allowed);
        callback(null, allowed[0].address, allowed[0].family);
      },
      (error: Error) => callback(error, ""),
    );
  };
}

async function readCapped(body: Dispatcher.ResponseData["body"], maxBytes: number, url: URL): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) {
      body.destroy();
      throw new ResponseTooLargeError(url.host, maxBytes);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The method and body of the next hop: 303, and 301/302 after a POST, become a GET without a body (as browsers do). */
function redirectedRequest(status: number, method: string, body: FetchOptions["body"]): { method: string; body: FetchOptions["body"] } {
  if (status === 303 || ((status === 301 || status === 302) && method === "POST")) return { method: "GET", body: undefined };
  return { method, body };
}

/**
 * The one way services reach user-given URLs. The addresses are checked before the request and again
 * at connect time (the agent's DNS lookup refuses disallowed answers), so a DNS answer that changes
 * between the two cannot smuggle the connection to a private address. Every redirect hop is re-checked.
 */
class GuardedClient implements OutboundClient {
  private readonly policy: AddressPolicy;
  private readonly limits: typeof DEFAULTS & OutboundOptions;
  private readonly resolveAll: Resolver;
  private readonly agent: Agent;

  constructor(options: OutboundOptions) {
    this.policy = new AddressPolicy(options.allowCidrs);
    this.limits = { ...DEFAULTS, ...options };
    this.resolveAll = options.resolve ?? systemResolve;
    this.agent = new Agent({ connect: { lookup: guardedLookup(this.policy, this.resolveAll) as never }, connections: 64 });
  }

  async check(raw: string, field = "url"): Promise<URL> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw refused(field, "must be an absolute http or https URL");
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw refused(field, "must use http or https");
    if (url.username || url.password) throw refused(field, "must not contain credentials");
    const host = bareHostname(url);
    if (isIP(host)) {
      if (!this.policy.allows(host)) throw refused(field, "must not point to a private, loopback, link-local or metadata address");
      return url;
    }
    let addresses: LookupAddress[];
    try {
      addresses = await this.resolveAll(host);
    } catch {
      throw errors.upstream(`The host ${host} does not resolve: DNS has no address for it.`);
    }
    if (addresses.length === 0 || addresses.some((a) => !this.policy.allows(a.address))) {
      throw refused(field, "must not resolve to a private, loopback, link-local or metadata address");
    }
    return url;
  }

  // With tracing on, the call (its redirects included) is a span of the request's trace, and sends its traceparent.
  fetch(raw: string, fetchOptions: FetchOptions = {}): Promise<FetchResult> {
    if (!tracing.on) return this.fetchUntraced(raw, fetchOptions);
    return outboundSpan((fetchOptions.method ?? "GET").toUpperCase(), raw, fetchOptions.headers, (headers) =>
      this.fetchUntraced(raw, { ...fetchOptions, headers }),
    );
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  private async send(url: URL, fetchOptions: FetchOptions, method: string, body: FetchOptions["body"], signal: AbortSignal) {
    try {
      return await request(url, {
        method: method as Dispatcher.HttpMethod,
        headers: { "user-agent": this.limits.userAgent ?? "apiplat-fetch/1.0", ...fetchOptions.headers },
        body,
        dispatcher: this.agent,
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw errors.upstreamTimeout(`${url.host} did not answer within ${fetchOptions.timeoutMs ?? this.limits.timeoutMs} ms.`);
      const cause = error instanceof BlockedAddressError ? error : (error as { cause?: unknown }).cause;
      if (error instanceof BlockedAddressError || cause instanceof BlockedAddressError) {
        throw refused(fetchOptions.field ?? "url", "must not resolve to a private, loopback, link-local or metadata address");
      }
      throw errors.upstream(`Could not reach ${url.host}.`);
    }
  }

  /** A redirect's target, checked: a hop the policy refuses is the caller's URL leading somewhere forbidden, a 400 like the URL itself. */
  private async checkHop(next: URL, field: string): Promise<URL> {
    try {
      return await this.check(next.toString(), field);
    } catch (error) {
      const issue = isApiError(error) && error.statusCode === 400 ? error.details?.[0]?.issue : undefined;
      if (issue) throw refused(field, `redirects to ${next.protocol}//${next.host}, which ${issue.replace(/^must not/, "may not")}`);
      throw error;
    }
  }

  private async fetchUntraced(raw: string, fetchOptions: FetchOptions): Promise<FetchResult> {
    const field = fetchOptions.field ?? "url";
    const timeoutMs = fetchOptions.timeoutMs ?? this.limits.timeoutMs;
    const maxBytes = fetchOptions.maxBytes ?? this.limits.maxBytes;
    const maxRedirects = fetchOptions.maxRedirects ?? this.limits.maxRedirects;
    const signal = AbortSignal.timeout(timeoutMs);
    let url = await this.check(raw, field);
    let next = { method: (fetchOptions.method ?? "GET").toUpperCase(), body: fetchOptions.body };
    for (let hop = 0; ; hop++) {
      const response = await this.send(url, fetchOptions, next.method, next.body, signal);
      const location = response.headers.location;
      if (!REDIRECT_STATUSES.has(response.statusCode) || typeof location !== "string" || maxRedirects === 0) {
        const data = await readCapped(response.body, maxBytes, url).catch((error) => {
          if (signal.aborted) throw errors.upstreamTimeout(`${url.host} did not answer within ${timeoutMs} ms.`);
          throw error;
        });
        return { status: response.statusCode, headers: response.headers, body: data, url: url.toString() };
      }
      await response.body.dump();
      if (hop >= maxRedirects) throw errors.upstream(`Gave up after ${maxRedirects} redirects.`);
      url = await this.checkHop(new URL(location, url), field);
      next = redirectedRequest(response.statusCode, next.method, next.body);
    }
  }
}

export function createOutboundClient(options: OutboundOptions = {}): OutboundClient {
  const client = new GuardedClient(options);
  // Callers pass check and fetch around on their own (`const { fetch } = outbound`): bound once here.
  return { check: client.check.bind(client), fetch: client.fetch.bind(client), close: client.close.bind(client) };
}

/** A service's client for its own fetches: the installation's OUTBOUND_ALLOW_CIDRS and the guard's defaults. */
export function outboundClientFor(config: { outboundAllowCidrs: readonly string[] }): OutboundClient {
  return createOutboundClient({ allowCidrs: config.outboundAllowCidrs });
}
