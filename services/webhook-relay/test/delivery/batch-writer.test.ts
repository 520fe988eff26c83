import { describe, expect, it } from "vitest";
import { BatchWriter } from "../../src/delivery/batch-writer.js";

function deferred() {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}

describe("BatchWriter", () => {
  it("writes alone when idle and batches what arrives while writes are in flight", async () => {
    const batches: number[][] = [];
    const gate = deferred();
    const writer = new BatchWriter<number, number>(
      async (items) => {
        batches.push(items);
        if (batches.length === 1) await gate.promise;
        return items.map((n) => n * 10);
      },
      1,
      3,
    );
    const first = writer.write(1);
    const rest = [2, 3, 4, 5, 6].map((n) => writer.write(n));
    gate.release();
    expect(await Promise.all([first, ...rest])).toEqual([10, 20, 30, 40, 50, 60]);
    expect(batches).toEqual([[1], [2, 3, 4], [5, 6]]);
  });

  it("retries a failed batch item by item so that only the bad item fails", async () => {
    const writer = new BatchWriter<number, number>(
      async (items) => {
        if (items.includes(13)) throw new Error("bad item");
        return items;
      },
      1,
      10,
    );
    const gate = writer.write(0);
    const results = await Promise.allSettled([gate, writer.write(12), writer.write(13), writer.write(14)]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect((results[2] as PromiseRejectedResult).reason.message).toBe("bad item");
  });
});
