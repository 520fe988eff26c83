import { destinationUrl } from "../domain/forwarding.js";
import { isSuccess, nextRetryDelayMs, type OutboundFetcher, type RetryPolicy } from "@apiplat/webhook-delivery";
import { BatchWriter } from "./batch-writer.js";
import { claimDueDeliveries, extendDeliveryClaims, finishDeliveryAttempts, type DeliveryJob, type FinishedDelivery } from "../store/deliveries.js";
import type { Database } from "@apiplat/storage";
import { PollingLoop } from "@apiplat/service-kit";
import { capturedBody } from "../store/bodies.js";
import { activeSecrets, attemptOutcome, sendRequest, type SendResult } from "./sender.js";

interface DeliveryWorkerOptions {
  concurrency: number;
  pollIntervalMs: number;
  timeoutMs: number;
  retryPolicy: RetryPolicy;
  random: () => number;
}

interface Logger {
  error(obj: unknown, msg?: string): void;
}

/**
 * How long a claim on a delivery lasts unless renewed. The worker renews its claims every CLAIM_RENEW_MS while it
 * works on them, so a replica that dies (SIGKILL, OOM) gives its deliveries back to the others within this time,
 * however long a delivery may take.
 */
const CLAIM_MS = 10_000;
const CLAIM_RENEW_MS = 3_000;

/**
 * Sends queued deliveries. Captures wake it at once (so forwarding is immediate on the replica that
 * captured); a poll picks up retries that come due and work left by other replicas.
 */
export class DeliveryWorker {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly loop: PollingLoop;
  private renewTimer: NodeJS.Timeout | undefined;
  /** Deliveries claimed by this worker and not yet recorded: their claims are renewed. */
  private readonly claimed = new Set<number>();
  private backlog = false;
  /** Slots promised to captures that will hand over their first attempt (see reserve). */
  private reserved = 0;
  private readonly results: BatchWriter<FinishedDelivery, void>;

  constructor(
    private readonly db: Database,
    private readonly outbound: OutboundFetcher,
    private readonly now: () => Date,
    private readonly log: Logger,
    private readonly options: DeliveryWorkerOptions,
  ) {
    this.results = new BatchWriter<FinishedDelivery, void>(
      async (items) => {
        await finishDeliveryAttempts(db, items);
        return items.map(() => undefined);
      },
      2,
      100,
    );
    this.loop = new PollingLoop({
      pass: () => this.claim(),
      pollMs: options.pollIntervalMs,
      onError: (error) => log.error({ err: error }, "claiming deliveries failed"),
    });
  }

  start(): void {
    this.loop.start();
    this.renewTimer = setInterval(() => void this.renewClaims(), CLAIM_RENEW_MS);
    this.renewTimer.unref();
  }

  /** Finishes the deliveries in flight; claims nothing new. */
  async stop(): Promise<void> {
    await this.loop.stop();
    await Promise.allSettled([...this.inFlight]);
    clearInterval(this.renewTimer);
  }

  /** How long a claim lasts: a worker that dies mid-delivery gives the delivery back after this. */
  claimUntil(now: Date): Date {
    return new Date(now.getTime() + CLAIM_MS);
  }

  private async renewClaims(): Promise<void> {
    if (this.claimed.size === 0) return;
    try {
      await extendDeliveryClaims(this.db, [...this.claimed], this.claimUntil(this.now()));
    } catch (error) {
      this.log.error({ err: error }, "renewing delivery claims failed");
    }
  }

  /**
   * Promises a slot to a capture about to be stored already claimed, so that its first attempt goes
   * out without a second query. False when the worker is full (the capture is then queued unclaimed).
   */
  reserve(): boolean {
    if (!this.loop.isRunning || this.inFlight.size + this.reserved >= this.options.concurrency) return false;
    this.reserved++;
    return true;
  }

  /** Gives back a reserved slot: with the claimed job to send, or with nothing when storing failed. */
  release(job: DeliveryJob | null): void {
    this.reserved--;
    if (job) this.track(this.deliver(job));
  }

  wake(): void {
    this.loop.kick();
  }

  /** Claims as many due deliveries as there is room for; true when they filled it, so that more may be due. */
  private async claim(): Promise<boolean> {
    const room = this.options.concurrency - this.inFlight.size - this.reserved;
    if (room <= 0) {
      this.backlog = true;
      return false;
    }
    const now = this.now();
    const jobs = await claimDueDeliveries(this.db, now, this.claimUntil(now), room);
    this.backlog = jobs.length === room;
    for (const job of jobs) this.track(this.deliver(job));
    return this.backlog;
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => {
      this.inFlight.delete(work);
      if (this.backlog) this.wake();
    });
  }

  private async deliver(job: DeliveryJob): Promise<void> {
    const startedAt = this.now();
    this.claimed.add(job.delivery_id);
    try {
      const result = await this.send(job, startedAt);
      await this.record(job, startedAt, result);
    } catch (error) {
      // The claim lapses after its lock time and another pass retries the delivery.
      this.log.error({ err: error, request_id: job.request_id }, "delivery failed to record");
    } finally {
      this.claimed.delete(job.delivery_id);
    }
  }

  private async send(job: DeliveryJob, startedAt: Date): Promise<SendResult> {
    let url: string;
    try {
      url = destinationUrl(job.destination_url, job.path, job.query_string);
    } catch {
      return { url: job.destination_url, statusCode: null, latencyMs: 0, error: "destination URL is invalid", responseBody: null, permanentError: true };
    }
    const request = {
      messageId: job.request_id,
      method: job.method,
      headers: job.headers,
      body: await capturedBody(this.db, job.request_id, job.body),
      dropAuthorization: job.has_basic_auth,
      secrets: activeSecrets(job.signing_secret, job.previous_signing_secret, job.previous_secret_expires_at, startedAt),
    };
    return sendRequest(this.outbound, url, request, Math.floor(startedAt.getTime() / 1000), this.options.timeoutMs);
  }

  private async record(job: DeliveryJob, startedAt: Date, result: SendResult): Promise<void> {
    const now = this.now();
    const outcome = { statusCode: result.statusCode, permanentError: result.permanentError, retryAfter: result.retryAfter };
    const delay = nextRetryDelayMs(job.attempt, outcome, now, this.options.random(), this.options.retryPolicy);
    const nextAttemptAt = delay === null ? null : new Date(now.getTime() + delay);
    const state = isSuccess(outcome) ? "succeeded" : nextAttemptAt === null ? "failed" : "pending";
    await this.results.write({
      deliveryId: job.delivery_id,
      attempt: {
        requestId: job.request_id,
        kind: "forward",
        attempt: job.attempt,
        ...attemptOutcome(result, startedAt),
        nextAttemptAt,
      },
      state,
      now,
    });
  }
}
