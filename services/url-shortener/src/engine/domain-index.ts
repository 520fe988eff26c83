import { listVerifiedDomains } from "../store/domains.js";
import type { Queryable } from "@apiplat/storage";
import type { GuardedKv } from "./kv-guard.js";

const CHANNEL = "url-shortener:domains-changed";

/**
 * Every verified custom domain, held in memory and reloaded on an interval and whenever a process announces a
 * change. The redirect path asks it about the request's Host without touching the database, so requests with
 * arbitrary Host headers cost nothing.
 */
export class CustomDomainIndex {
  private domains = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(
    private readonly db: Queryable,
    private readonly kv: GuardedKv,
    private readonly refreshMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  async start(): Promise<void> {
    await this.reload();
    this.timer = setInterval(() => void this.reload().catch(this.onError), this.refreshMs);
    this.timer.unref();
    this.unsubscribe = await this.kv.call((kv) => kv.subscribe(CHANNEL, () => void this.reload().catch(this.onError)), null);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.unsubscribe?.();
  }

  has(host: string): boolean {
    return this.domains.has(host);
  }

  /** Reloads here at once and tells the other processes to reload. */
  async changed(): Promise<void> {
    await this.reload();
    await this.kv.call((kv) => kv.publish(CHANNEL, "reload"), undefined);
  }

  private async reload(): Promise<void> {
    this.domains = new Set(await listVerifiedDomains(this.db));
  }
}
