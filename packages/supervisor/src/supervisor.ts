import { spawn, type ChildProcess } from "node:child_process";

export interface ChildSpec {
  name: string;
  /** The program and its arguments (the same command a container of the service runs). */
  command: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Answers 200 once the process serves requests. */
  healthUrl: string;
}

export interface SupervisorOptions {
  log?: (line: string) => void;
  /** First restart delay; it doubles with each death in a row, up to maxBackoffMs. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** A process that served this long before dying starts the backoff over. */
  stableAfterMs?: number;
  /** How long a process may take to drain after SIGTERM before it is killed. */
  stopTimeoutMs?: number;
  /** How long start() waits for every process to answer its health check. */
  readyTimeoutMs?: number;
}

export interface ChildStatus {
  name: string;
  pid: number | undefined;
  ready: boolean;
  restarts: number;
  /** Why the last process ended, with the end of its error output. */
  lastExit?: string;
}

const STDERR_TAIL_CHARS = 2_000;

class SupervisedChild {
  process: ChildProcess | undefined;
  ready = false;
  restarts = 0;
  deathsInARow = 0;
  lastExit: string | undefined;
  /** Set once start() has reported: a process that becomes ready later says so in the log. */
  announceReady = false;
  private startedAt = 0;
  private stderrTail = "";
  private restartTimer: NodeJS.Timeout | undefined;
  private exited: Promise<void> = Promise.resolve();

  constructor(
    readonly spec: ChildSpec,
    private readonly options: Required<SupervisorOptions>,
    private readonly isStopping: () => boolean,
  ) {}

  start(): void {
    const [program, ...args] = this.spec.command;
    // setpriv's parent-death signal: the service drains and ends if the supervisor dies without stopping it (SIGKILL).
    // Its own process group: a Ctrl-C in the terminal reaches only the supervisor, which stops each in turn.
    const child = spawn("setpriv", ["--pdeathsig", "TERM", "--", program, ...args], {
      cwd: this.spec.cwd,
      env: this.spec.env,
      stdio: ["ignore", "inherit", "pipe"],
      detached: true,
    });
    this.process = child;
    this.ready = false;
    this.startedAt = Date.now();
    this.stderrTail = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      process.stderr.write(chunk);
      this.stderrTail = (this.stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
    });
    this.exited = new Promise((resolve) =>
      child.once("exit", (code, signal) => {
        this.onExit(child, code, signal);
        resolve();
      }),
    );
    void this.watchReadiness(child);
  }

  private onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.process !== child) return;
    this.process = undefined;
    this.ready = false;
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    const lastLine = this.stderrTail.trim().split("\n").at(-1) ?? "";
    this.lastExit = lastLine ? `${how}: ${lastLine}` : how;
    if (this.isStopping()) return;
    this.deathsInARow = Date.now() - this.startedAt >= this.options.stableAfterMs ? 1 : this.deathsInARow + 1;
    const delay = Math.min(this.options.maxBackoffMs, this.options.initialBackoffMs * 2 ** (this.deathsInARow - 1));
    this.restarts += 1;
    this.options.log(
      `supervisor: ${this.spec.name} (pid ${child.pid}) ${how}; restarting it in ${(delay / 1000).toFixed(1)} s (restart ${this.restarts}, ${this.deathsInARow} in a row)`,
    );
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (!this.isStopping()) this.start();
    }, delay);
  }

  private async watchReadiness(child: ChildProcess): Promise<void> {
    while (this.process === child && !this.ready) {
      try {
        const response = await fetch(this.spec.healthUrl, { signal: AbortSignal.timeout(1_000) });
        await response.body?.cancel();
        if (response.ok && this.process === child) {
          this.ready = true;
          if (this.restarts > 0) this.options.log(`supervisor: ${this.spec.name} is serving again (pid ${child.pid})`);
          else if (this.announceReady)
            this.options.log(`supervisor: ${this.spec.name} is serving now (pid ${child.pid}, ${new URL(this.spec.healthUrl).origin})`);
          return;
        }
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** SIGTERM (the service drains its requests), SIGKILL after stopTimeoutMs. */
  async stop(): Promise<void> {
    clearTimeout(this.restartTimer);
    const child = this.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => {
      this.options.log(`supervisor: ${this.spec.name} did not stop within ${this.options.stopTimeoutMs / 1000} s; killing it`);
      child.kill("SIGKILL");
    }, this.options.stopTimeoutMs);
    await this.exited;
    clearTimeout(timer);
  }

  status(): ChildStatus {
    return { name: this.spec.name, pid: this.process?.pid, ready: this.ready, restarts: this.restarts, lastExit: this.lastExit };
  }
}

/**
 * Runs each service as a process of its own, restarts one that dies (after 1 s, doubling for each death in a row up
 * to 30 s, logged), and stops them all on stop(): SIGTERM to every one at once, each draining its requests.
 */
export class Supervisor {
  private readonly children: SupervisedChild[];
  private stopping = false;
  private readonly options: Required<SupervisorOptions>;

  constructor(specs: readonly ChildSpec[], options: SupervisorOptions = {}) {
    this.options = {
      log: (line) => console.error(line),
      initialBackoffMs: 1_000,
      maxBackoffMs: 30_000,
      stableAfterMs: 60_000,
      stopTimeoutMs: 20_000,
      readyTimeoutMs: 180_000,
      ...options,
    };
    this.children = specs.map((spec) => new SupervisedChild(spec, this.options, () => this.stopping));
  }

  /** Starts every process at once; resolves when each answers its health check or the ready timeout passed. */
  async start(): Promise<ChildStatus[]> {
    for (const child of this.children) child.start();
    const deadline = Date.now() + this.options.readyTimeoutMs;
    while (Date.now() < deadline && !this.children.every((child) => child.ready || child.deathsInARow >= 3)) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (const child of this.children) child.announceReady = true;
    return this.status();
  }

  status(): ChildStatus[] {
    return this.children.map((child) => child.status());
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.children.map((child) => child.stop()));
  }
}
