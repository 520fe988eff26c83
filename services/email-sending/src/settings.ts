import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { integerSetting, listSetting, type Env } from "@apiplat/config";
import { SAFE_BROWSING_DEFAULT_ENDPOINT } from "@apiplat/url-safety";
import { domainOf, parseAddress } from "./domain/addresses.js";

export interface EmailSettings {
  /** `smtp://user:pass@host:port` or `smtps://...` (SMTP_URL); unset: the built-in local sink. */
  smtpUrl?: string;
  /** The sender used when a message names none (EMAIL_DEFAULT_FROM); its domain is the service's sending domain. */
  defaultFrom: string;
  /** Port of the inbound SMTP listener that receives bounces and complaints (EMAIL_INBOUND_PORT); 0 picks one. */
  inboundPort: number;
  /** Address the inbound listener binds to (EMAIL_INBOUND_HOST): loopback unless configured. */
  inboundHost: string;
  /**
   * The one address complaint reports (ARF) are taken at (EMAIL_FEEDBACK_ADDRESS): the address registered with the
   * mailbox providers' feedback loops. Default `fbl@bounces.<default sending domain>`.
   */
  feedbackAddress: string;
  /** Where tracking and unsubscribe links point (EMAIL_PUBLIC_BASE_URL), without a trailing slash. */
  publicBaseUrl: string;
  /** Signs tokens and encrypts DKIM private keys (EMAIL_SECRET). */
  secret: string;
  /** Where the local sink writes its .eml files. */
  outboxDir: string;
  /** Connections the SMTP pool keeps open to the relay. */
  smtpConnections: number;
  /** Messages in flight to the relay at once. */
  deliveryConcurrency: number;
  /** First retry delay after a temporary SMTP failure; each next one doubles (capped at 1 h). */
  retryBaseMs: number;
  /** Temporary failures retry for this long after the first attempt, then the message bounces (soft). */
  retryWindowMs: number;
  /** A claimed message whose worker vanished (a crash) is offered again after this long (renewed while it works). */
  leaseMs: number;
  /** How often an idle worker looks for due messages (scheduled ones, retries, other processes' inserts). */
  pollMs: number;
  /** Blocklist files tracked links are checked against (EMAIL_BLOCKLIST_FILES, comma-separated; the url-shortener's formats). */
  blocklistFiles: string[];
  /** How often the blocklist files are checked for changes (EMAIL_BLOCKLIST_RELOAD_SECONDS; 0: only at start). */
  blocklistReloadMs: number;
  /** Google Safe Browsing for tracked links (SAFE_BROWSING_API_KEY; unset: not asked). */
  safeBrowsingApiKey: string | null;
  safeBrowsingEndpoint: string;
  safeBrowsingTimeoutMs: number;
  /** SAFE_BROWSING_FAILURE_POLICY=open accepts messages when Safe Browsing cannot answer; closed (default) answers 503. */
  safeBrowsingFailOpen: boolean;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const DATA_DIR = path.join(repoRoot, ".data");

/**
 * EMAIL_SECRET, or for a local start without one, a random secret kept (0600) in .data so that DKIM keys and links
 * outlive a restart. Production sets EMAIL_SECRET.
 */
function secretFrom(env: Env): string {
  const given = env.EMAIL_SECRET;
  if (given) {
    if (given.length < 32) throw new Error("EMAIL_SECRET must be at least 32 characters");
    return given;
  }
  const file = path.join(DATA_DIR, "email-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(DATA_DIR, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

function publicBaseUrl(env: Env): string {
  const raw = env.EMAIL_PUBLIC_BASE_URL || "http://127.0.0.1:3011";
  const url = new URL(raw);
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("EMAIL_PUBLIC_BASE_URL must be an http(s) URL");
  return raw.replace(/\/+$/, "");
}

function feedbackAddress(env: Env, defaultFrom: string): string {
  const given = env.EMAIL_FEEDBACK_ADDRESS;
  if (given) {
    const parsed = parseAddress(given);
    if (!parsed || parsed.name) throw new Error(`EMAIL_FEEDBACK_ADDRESS is not a bare email address: "${given}"`);
    return parsed.address.toLowerCase();
  }
  return `fbl@bounces.${domainOf(parseAddress(defaultFrom)!.address)}`;
}

function safeBrowsingPolicy(env: Env): "open" | "closed" {
  const policy = env.SAFE_BROWSING_FAILURE_POLICY || "closed";
  if (policy !== "open" && policy !== "closed") throw new Error(`SAFE_BROWSING_FAILURE_POLICY must be open or closed, got "${policy}"`);
  return policy;
}

export function readSettings(env: Env): EmailSettings {
  const defaultFrom = env.EMAIL_DEFAULT_FROM || "API Platform <no-reply@mail.api.local>";
  if (!parseAddress(defaultFrom)) throw new Error(`EMAIL_DEFAULT_FROM is not an email address: "${defaultFrom}"`);
  if (env.SMTP_URL && !/^smtps?:\/\//.test(env.SMTP_URL)) throw new Error("SMTP_URL must start with smtp:// or smtps://");
  return {
    smtpUrl: env.SMTP_URL || undefined,
    defaultFrom,
    inboundPort: integerSetting(env, "EMAIL_INBOUND_PORT", 2525),
    inboundHost: env.EMAIL_INBOUND_HOST || "127.0.0.1",
    feedbackAddress: feedbackAddress(env, defaultFrom),
    publicBaseUrl: publicBaseUrl(env),
    secret: secretFrom(env),
    outboxDir: env.EMAIL_OUTBOX_DIR || path.join(DATA_DIR, "outbox"),
    smtpConnections: integerSetting(env, "EMAIL_SMTP_CONNECTIONS", 5, 1),
    deliveryConcurrency: integerSetting(env, "EMAIL_DELIVERY_CONCURRENCY", 32, 1),
    retryBaseMs: integerSetting(env, "EMAIL_RETRY_BASE_MS", 60_000, 1),
    retryWindowMs: integerSetting(env, "EMAIL_RETRY_WINDOW_MS", 24 * 60 * 60 * 1000, 1),
    leaseMs: integerSetting(env, "EMAIL_LEASE_MS", 15_000, 100),
    pollMs: integerSetting(env, "EMAIL_POLL_MS", 250, 10),
    blocklistFiles: listSetting(env.EMAIL_BLOCKLIST_FILES),
    blocklistReloadMs: integerSetting(env, "EMAIL_BLOCKLIST_RELOAD_SECONDS", 300, 0, 86_400) * 1000,
    safeBrowsingApiKey: env.SAFE_BROWSING_API_KEY || null,
    safeBrowsingEndpoint: env.SAFE_BROWSING_ENDPOINT || SAFE_BROWSING_DEFAULT_ENDPOINT,
    safeBrowsingTimeoutMs: integerSetting(env, "SAFE_BROWSING_TIMEOUT_MS", 2_000, 100, 30_000),
    safeBrowsingFailOpen: safeBrowsingPolicy(env) === "open",
  };
}
