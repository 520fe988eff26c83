import { describe, expect, it } from "vitest";
import { PollingLoop } from "../src/polling-loop.js";

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("PollingLoop", () => {
  it("passes at start, again at once while more is waiting, then at each poll", async () => {
    let waiting = 3;
    let passes = 0;
    const pass = async () => {
      passes++;
      waiting--;
      return waiting > 0;
    };
    const loop = new PollingLoop({ pass, pollMs: 10_000, onError: () => {} });
    loop.start();
    await tick(20);
    expect(passes).toBe(3);
    await loop.stop();
  });

  it("looks again when kicked while idle, and keeps a kick that came during a pass", async () => {
    let passes = 0;
    let release: () => void = () => {};
    const loop = new PollingLoop({
      pass: async () => {
        passes++;
        if (passes === 2) await new Promise<void>((resolve) => (release = resolve));
        return false;
      },
      pollMs: 10_000,
      onError: () => {},
    });
    loop.start();
    await tick(5);
    expect(passes).toBe(1);
    loop.kick();
    await tick(5);
    expect(passes).toBe(2);
    loop.kick();
    release();
    await tick(5);
    expect(passes).toBe(3);
    await loop.stop();
    expect(loop.isRunning).toBe(false);
  });

  it("reports a failed pass and waits for the next poll", async () => {
    const errors: unknown[] = [];
    const loop = new PollingLoop({
      pass: async () => {
        throw new Error("down");
      },
      pollMs: 15,
      onError: (error) => errors.push(error),
    });
    loop.start();
    await tick(40);
    await loop.stop();
    expect(errors.length).toBeGreaterThanOrEqual(2);
    expect(errors.length).toBeLessThanOrEqual(4);
  });
});
