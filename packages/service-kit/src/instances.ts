import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "@apiplat/storage";

export interface InstanceRegistryOptions {
  service: string;
  /** Where this instance keeps counters, caches and pub/sub: "redis <key prefix>" or "memory". */
  store: string;
  log: FastifyBaseLogger;
  heartbeatMs?: number;
  /** A peer whose heartbeat is older than this is gone (killed, or its host lost). */
  staleMs?: number;
}

interface Peer {
  id: string;
  store: string;
  host: string;
  pid: number;
  started_at: Date;
  heartbeat_at: Date;
}

export const INSTANCE_HEARTBEAT_MS = 2_000;
export const INSTANCE_STALE_MS = 6_000;

/** Instances of one service disagree when they do not share one store: one without Redis shares it with nobody. */
function conflicts(own: string, peer: string): boolean {
  return own === "memory" || peer === "memory" || own !== peer;
}

function describe(peer: Peer): string {
  const where =
    peer.store === "memory" ? "without REDIS_URL" : `on Redis with ${peer.store === "redis " ? "no key prefix" : `key prefix "${peer.store.slice(6)}"`}`;
  return `pid ${peer.pid} on ${peer.host}, ${where}`;
}

/**
 * Every instance of a service registers on the database with a heartbeat, so that more than one of them without the
 * shared store (REDIS_URL) is found out: each would keep its own per-second limits, monthly counters, caches and live
 * streams, so N instances would allow N times every limit and miss each other's events. The instance that started last
 * refuses to start, naming the other; one that was running says so in its log at every heartbeat until it is alone.
 * An instance that died without leaving (SIGKILL) is waited for until its heartbeat is stale (INSTANCE_STALE_MS).
 */
export class InstanceRegistry {
  private timer: NodeJS.Timeout | undefined;
  private startedAt = new Date(0);

  private constructor(
    private readonly db: Database,
    private readonly id: string,
    private readonly options: Required<InstanceRegistryOptions>,
  ) {}

  static async join(db: Database, options: InstanceRegistryOptions): Promise<InstanceRegistry> {
    const registry = new InstanceRegistry(db, randomUUID(), {
      heartbeatMs: INSTANCE_HEARTBEAT_MS,
      staleMs: INSTANCE_STALE_MS,
      ...options,
    });
    await registry.register();
    // Beating while it waits too, so that an instance starting meanwhile sees this one alive.
    registry.timer = setInterval(() => void registry.beat(), registry.options.heartbeatMs);
    registry.timer.unref();
    try {
      await registry.refuseIfShared();
    } catch (error) {
      await registry.leave();
      throw error;
    }
    return registry;
  }

  async leave(): Promise<void> {
    clearInterval(this.timer);
    await this.db.query("DELETE FROM service_instances WHERE id = $1", [this.id]).catch(() => {});
  }

  private async register(): Promise<void> {
    await this.db.query("DELETE FROM service_instances WHERE heartbeat_at < clock_timestamp() - interval '1 hour'");
    const { rows } = await this.db.query<{ started_at: Date }>(
      "INSERT INTO service_instances (id, service, store, host, pid) VALUES ($1, $2, $3, $4, $5) RETURNING started_at",
      [this.id, this.options.service, this.options.store, hostname(), process.pid],
    );
    this.startedAt = rows[0].started_at;
  }

  /** Live instances of the service that cannot share this one's state, and the time the database says it is. */
  private async conflictingPeers(): Promise<{ peers: Peer[]; now: Date }> {
    const { rows } = await this.db.query<Peer & { now: Date }>(
      `SELECT id, store, host, pid, started_at, heartbeat_at, clock_timestamp() AS now FROM service_instances
        WHERE service = $1 AND id <> $2 AND heartbeat_at > clock_timestamp() - make_interval(secs => $3)`,
      [this.options.service, this.id, this.options.staleMs / 1000],
    );
    const { rows: clock } = rows.length ? { rows } : await this.db.query<{ now: Date }>("SELECT clock_timestamp() AS now");
    return { peers: rows.filter((peer) => conflicts(this.options.store, peer.store)), now: clock[0].now };
  }

  private startedBefore(peer: Peer): boolean {
    return peer.started_at < this.startedAt || (peer.started_at.getTime() === this.startedAt.getTime() && peer.id < this.id);
  }

  /** Refuses when an instance that started before this one is alive (its heartbeat moves while this one waits). */
  private async refuseIfShared(): Promise<void> {
    const waitingSince = Date.now();
    for (;;) {
      const { peers, now } = await this.conflictingPeers();
      const earlier = peers.filter((peer) => this.startedBefore(peer));
      if (earlier.length === 0) return;
      const alive = earlier.find((peer) => peer.heartbeat_at > this.startedAt);
      if (alive) throw new Error(this.message(alive, "refusing to start"));
      if (Date.now() - waitingSince > this.options.staleMs + this.options.heartbeatMs) return;
      this.options.log.warn(`waiting to see whether an earlier instance (${describe(earlier[0])}) is still alive (${now.toISOString()})`);
      await new Promise((resolve) => setTimeout(resolve, this.options.heartbeatMs / 2));
    }
  }

  private async beat(): Promise<void> {
    try {
      await this.db.query("UPDATE service_instances SET heartbeat_at = clock_timestamp() WHERE id = $1", [this.id]);
      const { peers } = await this.conflictingPeers();
      if (peers.length > 0) this.options.log.error(this.message(peers[0], "its limits, counters and streams are wrong while both run"));
    } catch (error) {
      this.options.log.warn({ err: error }, "instance heartbeat failed");
    }
  }

  private message(peer: Peer, consequence: string): string {
    const own = this.options.store === "memory" ? "without REDIS_URL" : "on Redis";
    return (
      `Another instance of ${this.options.service} runs on this database (${describe(peer)}) and this one is ${own}: ` +
      "several instances of a service need the same REDIS_URL (and REDIS_KEY_PREFIX), or each keeps its own per-second " +
      "limits, monthly counters, caches and live streams (N instances allow N times every limit and miss each other's " +
      `events). Set REDIS_URL on every instance, or run one; ${consequence}.`
    );
  }
}
