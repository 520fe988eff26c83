/** The marketplace plans (README, "Authentication, plans and metering"). Money is in US dollars, kept as strings of cents-exact decimals. */
export const PLAN_NAMES = ["BASIC", "PRO", "ULTRA", "MEGA"] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export interface Plan {
  name: PlanName;
  monthlyRequests: number;
  /** Monthly price in dollars, as a decimal string. */
  price: string;
  /** Price of each request past the monthly allowance; null means a hard limit. */
  overagePerRequest: string | null;
  requestsPerSecond: number;
}

export const PLANS: Record<PlanName, Plan> = {
  BASIC: { name: "BASIC", monthlyRequests: 100, price: "0.00", overagePerRequest: null, requestsPerSecond: 5 },
  PRO: { name: "PRO", monthlyRequests: 10_000, price: "9.99", overagePerRequest: "0.005", requestsPerSecond: 20 },
  ULTRA: { name: "ULTRA", monthlyRequests: 100_000, price: "29.99", overagePerRequest: "0.002", requestsPerSecond: 50 },
  MEGA: { name: "MEGA", monthlyRequests: 1_000_000, price: "99.99", overagePerRequest: "0.001", requestsPerSecond: 100 },
};

export function isPlanName(value: string): value is PlanName {
  return (PLAN_NAMES as readonly string[]).includes(value);
}
