import { describe, expect, it } from "vitest";
import { createTestPlatform, startReplicas } from "@apiplat/testing";

describe("several instances of a service without REDIS_URL", () => {
  it("are refused at start: the instance that started last names the other and stops", { timeout: 120_000 }, async () => {
    const platform = await createTestPlatform();
    try {
      const attempt = startReplicas("text-toolkit", { replicas: 2, platform, env: { REDIS_URL: "" } });
      await expect(attempt).rejects.toThrow(/Another instance of text-toolkit runs on this database \(pid \d+ on .+, without REDIS_URL\)/);
      await expect(attempt).rejects.toThrow(/Set REDIS_URL on every instance, or run one; refusing to start/);
    } finally {
      await platform.close();
    }
  });

  it("one alone starts, and starts again after a crash once its old heartbeat is stale", { timeout: 120_000 }, async () => {
    const set = await startReplicas("text-toolkit", { replicas: 1, env: { REDIS_URL: "" } });
    try {
      const { headers } = await set.platform.subscribe("text-toolkit", "PRO");
      expect((await set.request({ path: "/uuid", headers })).status).toBe(200);
      await set.stop(0, "SIGKILL");
      // The dead instance's row is still there: the new one waits until its heartbeat is stale (6 s; "waiting to see
      // whether an earlier instance is still alive" in its log, unless its own start took that long), then starts.
      await set.start(0);
      expect((await set.request({ path: "/uuid", headers })).status).toBe(200);
    } finally {
      await set.close();
    }
  });
});
