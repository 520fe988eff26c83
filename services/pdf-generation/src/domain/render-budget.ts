import { isRenderError, RenderError } from "./errors.js";
import type { Plan } from "./limits.js";
import { nextPlanWithMore } from "./plan-advice.js";

/**
 * Each plan's render budget bounds how long one job may hold a browser page, whatever `timeout_ms` asks: a
 * document built to be slow to lay out (say 200 KB of one word) ties up a page for no more than its plan pays for.
 */
export interface RenderBudget {
  plan: Plan;
  budgetMs: number;
  /** timeout_ms as asked (or its default). */
  requestedMs: number;
  /** Every plan's budget, to name one that would help. */
  budgets: Record<Plan, number>;
}

/** The timeout the job actually runs with. */
export function budgetedTimeoutMs({ budgetMs, requestedMs }: RenderBudget): number {
  return Math.min(budgetMs, requestedMs);
}

/** A timeout that the plan's budget imposed (not the caller's own timeout_ms) says so. */
export function explainBudgetTimeout(error: unknown, budget: RenderBudget): unknown {
  if (!isRenderError(error) || error.kind !== "timeout" || budget.budgetMs >= budget.requestedMs) return error;
  const next = nextPlanWithMore(budget.budgets, budget.plan);
  return new RenderError(
    "budget_exceeded",
    `Rendering was stopped at the ${budget.plan} plan's render budget of ${budget.budgetMs} ms; timeout_ms cannot raise it. ` +
      (next ? `Make the document or page lighter, or move to ${next} (a budget of ${budget.budgets[next]} ms).` : "Make the document or page lighter."),
  );
}
