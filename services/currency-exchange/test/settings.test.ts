import { describe, expect, it } from "vitest";
import { loadConfig } from "@apiplat/config";
import { createTestPlatform } from "@apiplat/testing";
import { DailySchedule, nextRun, parseSchedule } from "../src/rates/scheduler.js";
import { settingsFromConfig } from "../src/settings.js";

describe("schedule", () => {
  it("parses HH:MM UTC times, sorted and de-duplicated", () => {
    expect(parseSchedule("22:30, 15:30,22:30")).toEqual([930, 1350]);
    expect(() => parseSchedule("24:00")).toThrow('"24:00" is not an HH:MM time (UTC)');
    expect(() => parseSchedule("9:30")).toThrow();
  });

  it("finds the next run strictly after now, rolling over midnight", () => {
    const schedule = parseSchedule("15:30,22:30");
    expect(nextRun(new Date("2026-03-18T15:29:59Z"), schedule).toISOString()).toBe("2026-03-18T15:30:00.000Z");
    expect(nextRun(new Date("2026-03-18T15:30:00Z"), schedule).toISOString()).toBe("2026-03-18T22:30:00.000Z");
    expect(nextRun(new Date("2026-03-18T23:00:00Z"), schedule).toISOString()).toBe("2026-03-19T15:30:00.000Z");
  });

  it("runs the job once per scheduled time across replicas sharing Redis", async () => {
    const platform = await createTestPlatform();
    const now = () => new Date("2026-03-18T15:29:59.950Z");
    let runs = 0;
    const job = async () => void runs++;
    const replicas = [1, 2].map(() => new DailySchedule([930], platform.deps.kv, now, job, () => undefined));
    replicas.forEach((r) => r.start());
    // The run is due 50 ms after start: wait for it however slow the machine is, then long enough for a second
    // replica's run to show if the lock failed to stop it.
    for (let waited = 0; runs === 0 && waited < 5_000; waited += 25) await new Promise((resolve) => setTimeout(resolve, 25));
    await new Promise((resolve) => setTimeout(resolve, 400));
    await Promise.all(replicas.map((r) => r.stop()));
    await platform.close();
    expect(runs).toBe(1);
  });
});

describe("settings from the environment", () => {
  it("defaults: every source at its bank's URL, fetches at 15:30 and 22:30 UTC, seed from the datasets folder", () => {
    const config = loadConfig({ DATASETS_DIR: "/data" });
    const settings = settingsFromConfig(config);
    expect(settings.feeds.map((f) => f.source)).toEqual(["ecb", "bdi", "nbp-a", "boc", "nbp-b", "cbr"]);
    expect(settings.feeds[0].url).toBe("https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml");
    expect(settings.schedule).toEqual([930, 1350]);
    expect(settings.seedPaths).toEqual(["/data/currency-exchange"]);
    expect(settings.seedHistoryDays).toBe(400);
    expect(settings.fetchOnStart).toBe(false);
  });

  it("overrides: URLs, sources, schedule off, seed off, retries", () => {
    const settings = settingsFromConfig(
      loadConfig({
        CURRENCY_SOURCES: "ecb,nbp-b",
        CURRENCY_NBP_B_URL: "http://127.0.0.1:9/b",
        CURRENCY_FETCH_SCHEDULE: "off",
        CURRENCY_SEED_DIR: "off",
        CURRENCY_FETCH_RETRIES: "5",
        CURRENCY_SEED_HISTORY_DAYS: "all",
      }),
    );
    expect(settings.feeds).toEqual([
      { source: "ecb", url: "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml" },
      { source: "nbp-b", url: "http://127.0.0.1:9/b" },
    ]);
    expect([settings.schedule, settings.seedPaths, settings.fetch.retries, settings.seedHistoryDays]).toEqual([[], [], 5, null]);
    expect(() => settingsFromConfig(loadConfig({ CURRENCY_SOURCES: "ecb,fed" }))).toThrow('unknown source "fed"');
  });
});
