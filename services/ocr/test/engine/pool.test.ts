import { describe, expect, it } from "vitest";
import { OcrBusyError, OcrTimeoutError } from "../../src/domain/errors.js";
import { EnginePool, type OcrEngine } from "../../src/engine/pool.js";

class FakeEngine implements OcrEngine {
  static created = 0;
  terminated = false;
  constructor(
    public languages: string,
    readonly serial = ++FakeEngine.created,
  ) {}
  async setLanguages(languages: string) {
    this.languages = languages;
  }
  async terminate() {
    this.terminated = true;
  }
}

describe("engine pool", () => {
  const newPool = (size: number, maxQueue: number) =>
    new EnginePool<FakeEngine>({ size, maxQueue, createEngine: async (languages) => new FakeEngine(languages) });
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("reuses an engine already loaded with the requested languages", async () => {
    const pool = newPool(2, 4);
    await pool.warm("eng");
    const first = (await pool.run("chi_sim", 1000, async (engine) => engine)).result;
    const second = (await pool.run("eng", 1000, async (engine) => engine)).result;
    const third = (await pool.run("chi_sim", 1000, async (engine) => engine)).result;
    expect(third).toBe(first);
    expect(second).not.toBe(first);
    expect([first.languages, second.languages]).toEqual(["chi_sim", "eng"]);
    await pool.close();
  });

  it("terminates an engine whose job overruns and serves the next job with a fresh one", async () => {
    const pool = newPool(1, 4);
    let stuck: FakeEngine | undefined;
    await expect(
      pool.run("eng", 50, async (engine) => {
        stuck = engine;
        await sleep(500);
        return 1;
      }),
    ).rejects.toThrow(OcrTimeoutError);
    expect(stuck?.terminated).toBe(true);
    const next = await pool.run("eng", 1000, async (engine) => engine);
    expect(next.result).not.toBe(stuck);
    expect(pool.stats()).toEqual({ size: 1, busy: 0, queued: 0, replaced: 1 });
    await pool.close();
  });

  it("retires an engine after a job marked large, so its memory is given back", async () => {
    const pool = newPool(1, 4);
    const large = await pool.run("eng", 1000, async (engine) => engine, { retireAfter: true });
    expect(large.result.terminated).toBe(true);
    const next = await pool.run("eng", 1000, async (engine) => engine);
    expect(next.result).not.toBe(large.result);
    expect(next.result.terminated).toBe(false);
    await pool.close();
  });

  it("queues up to maxQueue jobs and refuses the next one", async () => {
    const pool = newPool(1, 2);
    const running = [0, 1, 2].map(() => pool.run("eng", 1000, async () => sleep(100)));
    await expect(pool.run("eng", 1000, async () => 1)).rejects.toThrow(OcrBusyError);
    expect(pool.stats().queued).toBe(2);
    await Promise.all(running);
    expect(pool.stats()).toEqual({ size: 1, busy: 0, queued: 0, replaced: 0 });
    await pool.close();
  });
});
