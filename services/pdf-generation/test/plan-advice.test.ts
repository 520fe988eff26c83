import { describe, expect, test } from "vitest";
import { PLAN_NAMES } from "@apiplat/config";
import { MERGE_BYTE_LIMITS, MERGE_PAGE_LIMITS, PAGE_LIMITS } from "../src/domain/limits.js";
import { DEFAULT_SETTINGS } from "../src/settings.js";
import { nextPlanWithMore } from "../src/domain/plan-advice.js";
import { assertWithinMergePageLimit, assertWithinPageLimit, mergeBytesAdvice } from "../src/domain/page-limit.js";

const bounds = { PAGE_LIMITS, MERGE_PAGE_LIMITS, MERGE_BYTE_LIMITS, renderBudgetMs: DEFAULT_SETTINGS.renderBudgetMs };

describe("advice that names a plan", () => {
  test("names only a real plan above, whose bound is larger; none from the top", () => {
    for (const [name, table] of Object.entries(bounds)) {
      for (const plan of PLAN_NAMES) {
        const next = nextPlanWithMore(table, plan);
        if (next === null) continue;
        expect(PLAN_NAMES, name).toContain(next);
        expect(PLAN_NAMES.indexOf(next), name).toBeGreaterThan(PLAN_NAMES.indexOf(plan));
        expect(table[next], name).toBeGreaterThan(table[plan]);
      }
      expect(nextPlanWithMore(table, "MEGA"), name).toBeNull();
    }
    expect(nextPlanWithMore(PAGE_LIMITS, "BASIC")).toBe("ULTRA");
    expect(nextPlanWithMore(PAGE_LIMITS, "ULTRA")).toBeNull();
    expect(nextPlanWithMore(MERGE_BYTE_LIMITS, "BASIC")).toBe("PRO");
  });

  test("every message of a refused size names no plan beyond the real ones, and says what to do on the top plan", () => {
    const messages: string[] = [];
    for (const plan of PLAN_NAMES) {
      for (const check of [() => assertWithinPageLimit(PAGE_LIMITS[plan] + 1, plan), () => assertWithinMergePageLimit(MERGE_PAGE_LIMITS[plan] + 1, plan)]) {
        try {
          check();
        } catch (error) {
          messages.push((error as Error).message);
        }
      }
      messages.push(mergeBytesAdvice(plan).message);
    }
    expect(messages).toHaveLength(12);
    for (const message of messages) {
      expect(message).not.toMatch(/higher (limit|plan)|larger budget/);
      const named = [...message.matchAll(/(?:the (\w+) plan|move to (\w+))/g)].map((match) => match[1] ?? match[2]);
      expect(named.length).toBeGreaterThan(0);
      for (const plan of named) expect(PLAN_NAMES).toContain(plan);
    }
    expect(() => assertWithinPageLimit(1001, "MEGA")).toThrow(
      "The PDF has 1001 pages; the MEGA plan allows at most 1000 pages per document. Render it in parts of at most 1000 pages and join them with /merge (up to 10000 pages on this plan).",
    );
    expect(() => assertWithinPageLimit(101, "BASIC")).toThrow(
      "The PDF has 101 pages; the BASIC plan allows at most 100 pages per document. Render it in parts of at most 100 pages and join them with /merge (up to 1000 pages on this plan), or move to ULTRA (1000 pages per document).",
    );
  });
});
