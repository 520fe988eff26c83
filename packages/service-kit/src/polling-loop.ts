export interface PollingLoopOptions {
  /** One pass over the due work; true when more is waiting, so that the next pass runs at once. */
  pass: () => Promise<boolean>;
  /** How long an idle loop waits before it looks again when nothing kicks it. */
  pollMs: number;
  /** A failed pass is reported here; the loop then waits for the next poll or kick. */
  onError: (error: unknown) => void;
}

/**
 * The consumer loop of a queue kept in the database: a pass claims what is due, and the loop sleeps until the next
 * poll unless a kick (new work queued here, a slot freed) says to look now. A kick that comes during a pass is kept,
 * so work queued while a pass runs waits for no poll. `stop` lets the running pass finish and claims nothing more.
 */
export class PollingLoop {
  private running = false;
  private kicked = false;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;

  constructor(private readonly options: PollingLoopOptions) {}

  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** Look now instead of at the next poll. */
  kick(): void {
    this.kicked = true;
    this.wake?.();
  }

  /** Resolves once the pass under way, if any, has finished. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.kicked = false;
      let more = false;
      try {
        more = await this.options.pass();
      } catch (error) {
        this.options.onError(error);
      }
      if (this.running && !more && !this.kicked) await this.sleep();
    }
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, this.options.pollMs);
      timer.unref();
      this.wake = done;
    });
  }
}
