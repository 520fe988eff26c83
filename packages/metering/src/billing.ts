import { PLANS, isPlanName, type PlanName } from "@apiplat/config";
import type { Database } from "@apiplat/storage";

export interface EndpointUsage {
  service: string;
  endpoint: string;
  requests: number;
}

export interface ServiceUsage {
  service: string;
  plan: PlanName | null;
  requests: number;
  included: number;
  overage: number;
  endpoints: { endpoint: string; requests: number }[];
}

export interface InvoiceLine {
  service: string;
  plan: PlanName;
  price: string;
  included_requests: number;
  requests: number;
  overage_requests: number;
  overage_rate: string;
  overage_amount: string;
  total: string;
}

export interface Invoice {
  account_id: string;
  month: string;
  currency: "USD";
  lines: InvoiceLine[];
  total: string;
}

// Money is computed in millionths of a dollar (integers), so 0.005 x 3 is exactly 0.015.
const MICROS = 1_000_000;
const toMicros = (dollars: string) => Math.round(Number(dollars) * MICROS);

/** Dollars with at least two decimals and no trailing zeros beyond them: 9.99, 0.015, 10.005. */
export function formatDollars(micros: number): string {
  const fixed = (micros / MICROS).toFixed(6);
  // eslint-disable-next-line regexp/no-super-linear-backtracking -- the input is toFixed(6) of a number: six decimals at most.
  return fixed.replace(/(\.\d\d\d*?)0+$/, "$1");
}

async function subscriptionPlans(db: Database, accountId: string): Promise<Map<string, PlanName>> {
  const { rows } = await db.query<{ service: string; plan: string }>("SELECT service, plan FROM subscriptions WHERE account_id = $1", [accountId]);
  return new Map(rows.filter((r) => isPlanName(r.plan)).map((r) => [r.service, r.plan as PlanName]));
}

async function endpointUsage(db: Database, accountId: string, month: string): Promise<EndpointUsage[]> {
  const { rows } = await db.query<EndpointUsage>(
    `SELECT service, endpoint, sum(requests)::bigint AS requests FROM usage_counts
      WHERE account_id = $1 AND month = $2 GROUP BY service, endpoint HAVING sum(requests) > 0 ORDER BY service, endpoint`,
    [accountId, month],
  );
  return rows.map((r) => ({ ...r, requests: Number(r.requests) }));
}

export async function usageReport(db: Database, accountId: string, month: string): Promise<ServiceUsage[]> {
  const plans = await subscriptionPlans(db, accountId);
  const byService = new Map<string, ServiceUsage>();
  for (const row of await endpointUsage(db, accountId, month)) {
    let service = byService.get(row.service);
    if (!service) {
      const plan = plans.get(row.service) ?? null;
      service = { service: row.service, plan, requests: 0, included: plan ? PLANS[plan].monthlyRequests : 0, overage: 0, endpoints: [] };
      byService.set(row.service, service);
    }
    service.requests += row.requests;
    service.endpoints.push({ endpoint: row.endpoint, requests: row.requests });
  }
  for (const service of byService.values()) service.overage = Math.max(0, service.requests - service.included);
  return [...byService.values()];
}

/**
 * One line per subscribed service the account could call (`billable`: the deployed services): the plan's monthly
 * price plus its overage. The plan is the one held when the invoice is computed (plan changes within a month are not
 * prorated). A subscription to a service that is not deployed is never billed.
 */
export async function invoice(db: Database, accountId: string, month: string, billable: ReadonlySet<string>): Promise<Invoice> {
  const plans = new Map([...(await subscriptionPlans(db, accountId))].filter(([service]) => billable.has(service)));
  const usage = new Map((await usageReport(db, accountId, month)).map((u) => [u.service, u.requests]));
  const lines: InvoiceLine[] = [];
  let totalMicros = 0;
  for (const [service, planName] of [...plans].sort(([a], [b]) => a.localeCompare(b))) {
    const plan = PLANS[planName];
    const requests = usage.get(service) ?? 0;
    const overageRequests = plan.overagePerRequest === null ? 0 : Math.max(0, requests - plan.monthlyRequests);
    const overageMicros = overageRequests * toMicros(plan.overagePerRequest ?? "0");
    const lineMicros = toMicros(plan.price) + overageMicros;
    totalMicros += lineMicros;
    lines.push({
      service,
      plan: planName,
      price: formatDollars(toMicros(plan.price)),
      included_requests: plan.monthlyRequests,
      requests,
      overage_requests: overageRequests,
      overage_rate: plan.overagePerRequest ?? "0.00",
      overage_amount: formatDollars(overageMicros),
      total: formatDollars(lineMicros),
    });
  }
  return { account_id: accountId, month, currency: "USD", lines, total: formatDollars(totalMicros) };
}
