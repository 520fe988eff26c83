import { describe, expect, it } from "vitest";
import { MAX_EXECUTION_TOKENS, planExecutions } from "../../src/domain/batching.js";

describe("planning USE-lite executions", () => {
  it("pads to a multiple of 4, groups rows of similar length and keeps within the token budget", () => {
    expect(planExecutions([5, 17, 8, 18])).toEqual([
      { rows: [0, 2], paddedLength: 8 },
      { rows: [1, 3], paddedLength: 20 },
    ]);
    expect(planExecutions([12])).toEqual([{ rows: [0], paddedLength: 12 }]);
    const long = planExecutions(Array(40).fill(512));
    expect(long.map((e) => e.rows.length)).toEqual([15, 15, 10]);
    for (const e of long) expect((e.rows.length + 1) * e.paddedLength).toBeLessThanOrEqual(MAX_EXECUTION_TOKENS);
  });
});
