import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReplicas, type ReplicaSet } from "../src/index.js";

describe("the replica harness", () => {
  let set: ReplicaSet;
  let headers: Record<string, string>;
  beforeAll(async () => {
    set = await startReplicas("text-toolkit", { replicas: 2 });
    headers = (await set.platform.subscribe("text-toolkit", "MEGA")).headers;
  });
  afterAll(async () => set?.close());

  it("spreads requests over the replicas through nginx, which sees the accounts the test made", async () => {
    for (let i = 0; i < 6; i++) expect((await set.request({ path: "/uuid", headers })).status).toBe(200);
    const upstreams = set.edge
      .accessLog()
      .filter((line) => line.startsWith("GET /uuid"))
      .map((line) => line.split(" ")[3]);
    expect(new Set(upstreams)).toEqual(new Set(set.replicas.map((r) => `127.0.0.1:${r.port}`)));
  });

  it("kills a replica, keeps answering through the other, and starts it again on its port", { timeout: 90_000 }, async () => {
    const exit = await set.stop(0, "SIGKILL");
    expect(exit.signal).toBe("SIGKILL");
    expect(set.replicas[0].running).toBe(false);
    for (let i = 0; i < 4; i++) expect((await set.request({ path: "/uuid", headers })).status).toBe(200);
    await set.start(0);
    expect((await set.request({ path: "/uuid", headers, replica: 0 })).status).toBe(200);
  });
});
