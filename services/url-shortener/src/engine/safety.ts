import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import type { SafetyVerdict, UrlSafety } from "@apiplat/url-safety";
import { LruCache } from "../domain/lru.js";
import { hostOf } from "../domain/url.js";

export type { SafetyVerdict } from "@apiplat/url-safety";

interface SafetyCheckerOptions {
  /** Host names this service answers on (the short-link host, the edge host). */
  ownHosts: ReadonlySet<string>;
  /** The short links' base URL: a target reaching the same address and port is this service, however it is spelt. */
  ownBaseUrl: string;
  /** True when a host is a custom domain registered with this service (any account). */
  isCustomDomain: (host: string) => Promise<boolean>;
  /** The shared destination check: blocklist, then Safe Browsing. */
  urlSafety: UrlSafety;
}

/** Refuses links to this service's own hosts (a short link to a short link), then runs the shared destination check. */
export class SafetyChecker {
  private ownEndpoint: Promise<Endpoint | null> | null = null;
  private readonly endpoints = new LruCache<Promise<Endpoint | null>>(10_000);

  constructor(private readonly options: SafetyCheckerOptions) {}

  async check(urls: readonly string[]): Promise<SafetyVerdict[]> {
    const loops = await Promise.all(urls.map((url) => this.isLoop(url)));
    const shared = await this.options.urlSafety.check(urls.filter((_, i) => !loops[i]));
    let next = 0;
    return loops.map((loop) => (loop ? { kind: "unsafe", threatType: "SHORT_LINK_LOOP", source: "service_domain" } : shared[next++]));
  }

  private async isLoop(url: string): Promise<boolean> {
    const target = new URL(url);
    const host = hostOf(target).replace(/\.$/, "");
    if (this.options.ownHosts.has(host) || (await this.options.isCustomDomain(host))) return true;
    // Another spelling of our own address ([::ffff:7f00:1], 127.0.0.2, 2130706433, localhost.) is compared by what it
    // resolves to and the port it reaches, not by its text.
    this.ownEndpoint ??= endpointOf(new URL(this.options.ownBaseUrl));
    const own = await this.ownEndpoint;
    // Another port is another service, whatever the address: no lookup needed.
    if (own === null || own.port !== portOf(target)) return false;
    const reached = await this.resolved(target);
    return reached !== null && reached.addresses.some((a) => own.addresses.some((b) => sameMachine(a, b)));
  }

  /** One lookup per host for a while: a bulk request of one hundred URLs on one host resolves it once. */
  private resolved(url: URL): Promise<Endpoint | null> {
    const key = `${url.hostname}:${portOf(url)}`;
    let endpoint = this.endpoints.get(key);
    if (!endpoint) {
      endpoint = endpointOf(url);
      this.endpoints.set(key, endpoint, RESOLVED_TTL_MS);
    }
    return endpoint;
  }
}

interface Endpoint {
  addresses: string[];
  port: number;
}

const DEFAULT_PORTS: Record<string, number> = { "http:": 80, "https:": 443 };
const RESOLVED_TTL_MS = 60_000;

function portOf(url: URL): number | undefined {
  return url.port ? Number(url.port) : DEFAULT_PORTS[url.protocol];
}

/** The addresses a URL's host resolves to (IPv4-mapped IPv6 written as IPv4) and the port it reaches; null when unresolvable. */
async function endpointOf(url: URL): Promise<Endpoint | null> {
  const host = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");
  const port = portOf(url);
  if (port === undefined) return null;
  try {
    const addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
    return { addresses: addresses.map(unmapped), port };
  } catch {
    return null;
  }
}

function unmapped(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return address.toLowerCase();
  const high = Number.parseInt(hex[1], 16);
  const low = Number.parseInt(hex[2], 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Every loopback address (127.0.0.0/8, ::1) and the unspecified ones reach this machine: one machine, whichever is named. */
function sameMachine(a: string, b: string): boolean {
  const local = (address: string) => address.startsWith("127.") || address === "::1" || address === "0.0.0.0" || address === "::";
  return a === b || (local(a) && local(b));
}
