import { afterEach, describe, expect, test, vi } from "vitest";
import { throttledRefusalLog } from "../src/browser/browser-network.js";

describe("refused browser connections in the log", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test("at most the limit a minute, then one line with how many more there were", () => {
    vi.useFakeTimers({ now: new Date("2026-11-25T04:00:00Z") });
    const lines: Array<{ fields: Record<string, unknown>; message: string }> = [];
    const log = throttledRefusalLog((fields, message) => lines.push({ fields, message }), 3);
    const refusal = { method: "CONNECT", target: "127.0.0.1:9", reason: "refused" };
    for (let i = 0; i < 10; i++) log(refusal);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toEqual({ fields: { refusal }, message: "the outbound guard refused a connection the browser opened" });
    vi.advanceTimersByTime(59_999);
    log(refusal);
    expect(lines).toHaveLength(3);
    vi.advanceTimersByTime(1);
    log(refusal);
    expect(lines.slice(3)).toEqual([
      { fields: { suppressed: 8 }, message: "the outbound guard refused more browser connections than were logged" },
      { fields: { refusal }, message: "the outbound guard refused a connection the browser opened" },
    ]);
  });
});
