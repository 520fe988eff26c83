import type { Database, Queryable } from "@apiplat/storage";

/** Where one billable request is counted: its month, account, key, service and endpoint ("GET /hash"). */
export interface UsageKey {
  month: string;
  accountId: string;
  keyId: string;
  service: string;
  endpoint: string;
}

/** Requests recorded in PostgreSQL for an account and service in a month. */
export async function recordedInMonth(db: Database, month: string, accountId: string, service: string): Promise<number> {
  const { rows } = await db.query<{ total: number }>(
    "SELECT coalesce(sum(requests), 0)::bigint AS total FROM usage_counts WHERE month = $1 AND account_id = $2 AND service = $3",
    [month, accountId, service],
  );
  return Number(rows[0].total);
}

/** Adds the counts of several usage keys in one statement. */
export async function addUsage(db: Queryable, counts: readonly { key: UsageKey; requests: number }[]): Promise<void> {
  const columns: string[][] = [[], [], [], [], []];
  const requests: number[] = [];
  for (const { key, requests: n } of counts) {
    [key.month, key.accountId, key.keyId, key.service, key.endpoint].forEach((part, i) => columns[i].push(part));
    requests.push(n);
  }
  await db.query(
    `INSERT INTO usage_counts (month, account_id, key_id, service, endpoint, requests)
     SELECT * FROM unnest($1::text[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::bigint[])
     ON CONFLICT (month, account_id, key_id, service, endpoint)
     DO UPDATE SET requests = usage_counts.requests + excluded.requests`,
    [...columns, requests],
  );
}

/**
 * Applies one drained batch of usage once: recorded under its id with its counts in one transaction, so applying it
 * again (a retry after a crash) changes nothing. False when it had been applied already.
 */
export async function applyUsageBatch(db: Database, id: string, counts: readonly { key: UsageKey; requests: number }[]): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rowCount } = await tx.query("INSERT INTO usage_drains (id) VALUES ($1) ON CONFLICT DO NOTHING", [id]);
    if (rowCount === 0) return false;
    if (counts.length > 0) await addUsage(tx, counts);
    return true;
  });
}

/** Forgets batch ids older than `days`: a batch is retried within minutes, never days, after it was taken. */
export async function forgetOldBatches(db: Database, days: number): Promise<void> {
  await db.query("DELETE FROM usage_drains WHERE drained_at < now() - make_interval(days => $1)", [days]);
}

/**
 * Admits one request under a hard monthly limit, durably: counted in its usage row when the account has used less than
 * `limit` this month (see migrations/002_hard_limits.sql). `used` includes this request when admitted.
 */
export async function admitHardLimited(db: Database, key: UsageKey, limit: number): Promise<{ admitted: boolean; used: number }> {
  const { rows } = await db.query<{ admitted: boolean; used: number }>("SELECT admitted, used FROM metering_admit_hard_limited($1, $2, $3, $4, $5, $6)", [
    key.month,
    key.accountId,
    key.keyId,
    key.service,
    key.endpoint,
    limit,
  ]);
  return { admitted: rows[0].admitted, used: Number(rows[0].used) };
}

/** Takes back one request counted by admitHardLimited (the platform failed it): count and usage in one statement. */
export async function refundHardLimited(db: Database, key: UsageKey): Promise<void> {
  await db.query(
    `UPDATE usage_counts SET requests = requests - 1
      WHERE month = $1 AND account_id = $2 AND key_id = $3 AND service = $4 AND endpoint = $5 AND requests > 0`,
    [key.month, key.accountId, key.keyId, key.service, key.endpoint],
  );
}
