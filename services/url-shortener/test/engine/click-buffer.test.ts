import { describe, expect, it } from "vitest";
import { ClickBuffer, type RawClick } from "../../src/engine/click-buffer.js";

describe("ClickBuffer", () => {
  const click = (linkId: number): RawClick => ({ linkId, at: 0, ip: "1.1.1.1", userAgent: "", referer: undefined, counted: false });

  it("keeps a failed batch for the next flush and writes it with later clicks", async () => {
    const written: number[][] = [];
    let failNext = true;
    const buffer = new ClickBuffer({
      batchSize: 3,
      maxBuffered: 100,
      write: async (batch) => {
        if (failNext) {
          failNext = false;
          throw new Error("database down");
        }
        written.push(batch.map((c) => c.linkId));
      },
    });
    buffer.push(click(1));
    buffer.push(click(2));
    await buffer.flush();
    expect(written).toEqual([]);
    expect(buffer.size).toBe(2);
    buffer.push(click(3)); // a full batch starts a write by itself
    await buffer.flush();
    expect(written).toEqual([[1, 2, 3]]);
    expect(buffer.writtenTotal).toBe(3);
  });

  it("drops and counts clicks beyond its cap instead of growing without bound", () => {
    const buffer = new ClickBuffer({ batchSize: 100, maxBuffered: 2, write: async () => {} });
    for (let i = 0; i < 5; i++) buffer.push(click(i));
    expect(buffer.size).toBe(2);
    expect(buffer.droppedTotal).toBe(3);
  });
});
