import { FileBlocklist } from "./blocklist.js";
import { UrlSafety } from "./checker.js";
import { SafeBrowsingClient } from "./safe-browsing.js";

/** The part of a service's logger these use. */
interface Log {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** What a service's settings say of Safe Browsing (its SAFE_BROWSING_* variables). */
export interface SafeBrowsingSettings {
  safeBrowsingApiKey: string | null;
  safeBrowsingEndpoint: string;
  safeBrowsingTimeoutMs: number;
  safeBrowsingFailOpen: boolean;
}

/**
 * The blocklist and, with an API key, Safe Browsing (called as `clientId`); open or closed when Safe Browsing fails,
 * as configured, and each failure logged.
 */
export function configuredUrlSafety(settings: SafeBrowsingSettings, blocklist: FileBlocklist | null, clientId: string, log: Pick<Log, "warn">): UrlSafety {
  return new UrlSafety({
    blocklist,
    safeBrowsing: settings.safeBrowsingApiKey
      ? new SafeBrowsingClient({
          apiKey: settings.safeBrowsingApiKey,
          endpoint: settings.safeBrowsingEndpoint,
          timeoutMs: settings.safeBrowsingTimeoutMs,
          clientId,
          clientVersion: "1.0.0",
        })
      : null,
    failOpen: settings.safeBrowsingFailOpen,
    onSafeBrowsingUnavailable: (reason) => log.warn({ reason, policy: settings.safeBrowsingFailOpen ? "open" : "closed" }, "Safe Browsing unavailable"),
  });
}

/** The blocklist of these files, read once (a file that cannot be read refuses the start); null without files. */
export async function loadBlocklist(files: readonly string[]): Promise<FileBlocklist | null> {
  if (files.length === 0) return null;
  const blocklist = new FileBlocklist(files);
  await blocklist.reload(true);
  return blocklist;
}

/** Re-reads the blocklist files and says when they changed; a failed read leaves the previous lists in force. */
export async function reloadBlocklist(blocklist: FileBlocklist, log: Log): Promise<void> {
  try {
    if (await blocklist.reload()) log.info({ entries: blocklist.size }, "blocklist reloaded");
  } catch (error) {
    log.error({ err: error }, "blocklist reload failed; the previous lists stay in force");
  }
}

/** A service's background work that re-reads the blocklist files every `everyMs`. */
export function blocklistReloadWork(blocklist: FileBlocklist, everyMs: number, log: Log): { name: string; start(): void; stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  return {
    name: "blocklist reload",
    start() {
      timer = setInterval(() => void reloadBlocklist(blocklist, log), everyMs);
      timer.unref();
    },
    stop: () => clearInterval(timer),
  };
}
