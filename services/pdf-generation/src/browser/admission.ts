import { RenderError } from "../domain/errors.js";

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * The pool's pages as a counted resource: a job takes one or waits in a bounded queue for a bounded time; past
 * either bound it is refused at once (busy) instead of piling up.
 */
export class PageAdmission {
  private readonly waiters: Waiter[] = [];
  private free: number;

  constructor(
    pages: number,
    private readonly maxQueue: number,
    private readonly queueTimeoutMs: number,
  ) {
    this.free = pages;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  async acquire(): Promise<void> {
    if (this.free > 0) {
      this.free -= 1;
      return;
    }
    if (this.waiters.length >= this.maxQueue) {
      throw new RenderError("busy", `All rendering slots are busy and ${this.maxQueue} jobs are already waiting; retry in a few seconds.`);
    }
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer: setTimeout(() => {
          const at = this.waiters.indexOf(waiter);
          if (at >= 0) this.waiters.splice(at, 1);
          reject(new RenderError("busy", `No rendering slot became free within ${this.queueTimeoutMs} ms; retry in a few seconds.`));
        }, this.queueTimeoutMs),
      };
      this.waiters.push(waiter);
    });
  }

  /** A page is free again: the longest waiting job takes it. */
  release(): void {
    const next = this.waiters.shift();
    if (next) {
      clearTimeout(next.timer);
      next.resolve();
    } else {
      this.free += 1;
    }
  }

  /** Every waiting job is refused with `error` (the pool is closing). */
  refuseWaiting(error: Error): void {
    for (const waiter of this.waiters.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
  }
}
