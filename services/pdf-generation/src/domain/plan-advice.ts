import { PLAN_NAMES } from "@apiplat/config";
import type { Plan } from "./limits.js";

/**
 * The cheapest plan above `plan` whose bound is larger, or null when none is: a message never sends a subscriber
 * to a plan that does not exist or would not help.
 */
export function nextPlanWithMore(bounds: Record<Plan, number>, plan: Plan): Plan | null {
  const above = PLAN_NAMES.slice(PLAN_NAMES.indexOf(plan) + 1);
  return above.find((candidate) => bounds[candidate] > bounds[plan]) ?? null;
}
