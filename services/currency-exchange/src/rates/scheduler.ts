import type { KeyValueStore } from "@apiplat/storage";

/** "HH:MM" UTC times -> minutes after midnight, sorted; throws on anything else. */
export function parseSchedule(text: string): number[] {
  const minutes = text.split(",").map((part) => {
    const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(part.trim());
    if (!match) throw new Error(`CURRENCY_FETCH_SCHEDULE: "${part.trim()}" is not an HH:MM time (UTC)`);
    return Number(match[1]) * 60 + Number(match[2]);
  });
  return [...new Set(minutes)].sort((a, b) => a - b);
}

/** The first scheduled instant strictly after `now`. */
export function nextRun(now: Date, schedule: number[]): Date {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (let day = 0; day < 2; day++) {
    for (const minute of schedule) {
      const at = midnight + day * 86_400_000 + minute * 60_000;
      if (at > now.getTime()) return new Date(at);
    }
  }
  throw new Error("empty schedule");
}

/**
 * Runs `job` at each scheduled time. With several replicas sharing one Redis, a lock per scheduled instant
 * lets exactly one of them fetch.
 */
export class DailySchedule {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;

  constructor(
    private readonly schedule: number[],
    private readonly kv: KeyValueStore,
    private readonly now: () => Date,
    private readonly job: () => Promise<unknown>,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    if (this.stopped || this.schedule.length === 0) return;
    const at = nextRun(this.now(), this.schedule);
    // setTimeout cannot wait past ~24.8 days; a day at most is needed here.
    this.timer = setTimeout(() => void this.fire(at), Math.max(0, at.getTime() - this.now().getTime()));
    this.timer.unref();
  }

  private async fire(at: Date): Promise<void> {
    try {
      const lock = await this.kv.incrIfBelow(`currency-exchange:fetch-lock:${at.toISOString()}`, 1, 6 * 3600);
      if (lock !== null) {
        this.running = this.job();
        await this.running;
      }
    } catch (error) {
      this.onError(error);
    } finally {
      this.running = undefined;
      this.start();
    }
  }

  /** Stops scheduling; waits up to `graceMs` for a fetch in progress (its writes are transactional either way). */
  async stop(graceMs = 5_000): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    if (!this.running) return;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([this.running.catch(() => undefined), grace]);
    clearTimeout(timer);
  }
}
