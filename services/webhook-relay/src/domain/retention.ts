/** Plans as the platform names them (packages/config/src/plans.ts). */
export type PlanName = "BASIC" | "PRO" | "ULTRA" | "MEGA";

const DAY_SECONDS = 24 * 60 * 60;

/** How long an inbox and its captured requests are kept, per plan (spec, section 8). */
const RETENTION_SECONDS: Record<PlanName, number> = {
  BASIC: DAY_SECONDS,
  PRO: 30 * DAY_SECONDS,
  ULTRA: 90 * DAY_SECONDS,
  MEGA: 90 * DAY_SECONDS,
};

function retentionSeconds(plan: string): number {
  return RETENTION_SECONDS[plan as PlanName] ?? RETENTION_SECONDS.BASIC;
}

export function expiresAt(createdAt: Date, plan: string): Date {
  return new Date(createdAt.getTime() + retentionSeconds(plan) * 1000);
}

/** How many captures an inbox keeps, per plan; past it the oldest go (our choice, like webhook.site's cap). */
const MAX_REQUESTS_PER_INBOX: Record<PlanName, number> = {
  BASIC: 1_000,
  PRO: 10_000,
  ULTRA: 100_000,
  MEGA: 100_000,
};

export function maxRequestsPerInbox(plan: string): number {
  return MAX_REQUESTS_PER_INBOX[plan as PlanName] ?? MAX_REQUESTS_PER_INBOX.BASIC;
}

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/**
 * Bytes of captures (body, path, query and headers) one account may keep at once, per plan: a public,
 * unmetered hook URL must not be able to fill the database. A capture that does not fit is refused.
 */
export const STORAGE_QUOTA_BYTES: Record<PlanName, number> = {
  BASIC: 100 * MiB,
  PRO: 2 * GiB,
  ULTRA: 20 * GiB,
  MEGA: 100 * GiB,
};

export function storageQuotaBytes(plan: string, quotas: Record<PlanName, number> = STORAGE_QUOTA_BYTES): number {
  return quotas[plan as PlanName] ?? quotas.BASIC;
}
