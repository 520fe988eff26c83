import type { FastifyBaseLogger } from "fastify";
import type { Database } from "@apiplat/storage";
import { PollingLoop } from "@apiplat/service-kit";
import { nextRetryDelayMs, sendSignedWebhook, type OutboundFetcher, type RetryPolicy } from "@apiplat/webhook-delivery";
import { claimWebhookDeliveries, finishWebhookAttempt, releaseExpiredWebhookLeases } from "../store/webhooks.js";

interface WebhookSenderOptions {
  db: Database;
  outbound: OutboundFetcher;
  log: FastifyBaseLogger;
  now: () => Date;
  random: () => number;
  retryPolicy: RetryPolicy;
  pollMs: number;
  concurrency: number;
  timeoutMs: number;
}

/**
 * A claim outlives the attempt (bounded by `timeoutMs`) by this much: a replica that dies mid-attempt gives its status
 * events back to the others within the attempt's timeout plus this.
 */
const LEASE_MARGIN_MS = 10_000;

/** POSTs queued status events to the account's webhooks, signed (Standard Webhooks), retried on the shared schedule. */
export class WebhookSender {
  private readonly loop: PollingLoop;

  constructor(private readonly options: WebhookSenderOptions) {
    this.loop = new PollingLoop({
      pass: async () => (await this.sendDue()) > 0,
      pollMs: options.pollMs,
      onError: (error) => options.log.error({ err: error }, "email webhooks: sending failed"),
    });
  }

  start(): void {
    this.loop.start();
  }

  kick(): void {
    this.loop.kick();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async sendDue(): Promise<number> {
    const { db, now, outbound, retryPolicy, timeoutMs } = this.options;
    await releaseExpiredWebhookLeases(db, now());
    const jobs = await claimWebhookDeliveries(db, now(), timeoutMs + LEASE_MARGIN_MS, this.options.concurrency);
    await Promise.all(
      jobs.map(async (job) => {
        const attempt = await sendSignedWebhook(
          outbound,
          { url: job.url, messageId: job.id, body: job.payload, secrets: [job.secret] },
          Math.floor(now().getTime() / 1000),
          timeoutMs,
        );
        const delay = nextRetryDelayMs(job.attempts, attempt, now(), this.options.random(), retryPolicy);
        const succeeded = attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300;
        await finishWebhookAttempt(db, job.id, {
          state: succeeded ? "delivered" : delay === null ? "failed" : "waiting",
          nextAttemptAt: delay === null ? undefined : new Date(now().getTime() + delay),
          status: attempt.statusCode,
          error: attempt.error,
        });
      }),
    );
    return jobs.length;
  }
}
