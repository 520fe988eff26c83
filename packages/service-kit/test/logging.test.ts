import { describe, expect, it } from "vitest";
import { probeOnOwnPlatform } from "./support.js";

/** A probe app whose log lines are collected, at the given level. */
async function loggedApp(level: string) {
  const lines: Array<Record<string, unknown> & { level: number }> = [];
  const probe = await probeOnOwnPlatform({ LOG_LEVEL: level }, { logStream: { write: (line: string) => void lines.push(JSON.parse(line)) } });
  return { app: probe.app, sub: probe.subscriber, lines, close: probe.close };
}

describe("request logs", () => {
  it("carry the request id on every line a request writes, at warn", async () => {
    const { app, sub, lines, close } = await loggedApp("warn");
    try {
      await app.inject({ method: "GET", url: "/ping", headers: sub.headers });
      expect(lines).toEqual([]);
      const res = await app.inject({ method: "GET", url: "/boom", headers: { ...sub.headers, "x-request-id": "trace-boom-1" } });
      expect(res.statusCode).toBe(500);
      const errorLine = lines.find((line) => line.level === 50);
      expect(errorLine).toMatchObject({ request_id: "trace-boom-1", service: "text-toolkit" });
      expect(lines.every((line) => line.level >= 40)).toBe(true);
    } finally {
      await close();
    }
  });

  it("carry the request id on the incoming and completed lines at info, and keys stay redacted", async () => {
    const { app, sub, lines, close } = await loggedApp("info");
    try {
      const res = await app.inject({ method: "GET", url: "/ping", headers: sub.headers });
      const id = res.headers["x-request-id"];
      const own = lines.filter((line) => line.request_id === id);
      expect(own.map((line) => line.msg)).toEqual(["incoming request", "request completed"]);
      expect(JSON.stringify(lines)).not.toContain(sub.key);
    } finally {
      await close();
    }
  });
});
