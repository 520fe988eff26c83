import type { FastifyInstance } from "fastify";
import { ApiError, ok } from "@apiplat/errors";

export type ReadinessCheck = () => Promise<unknown>;

const CHECK_TIMEOUT_MS = 2_000;

async function passes(check: ReadinessCheck): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timeout")), CHECK_TIMEOUT_MS);
  });
  try {
    const result = await Promise.race([check(), timeout]);
    return result !== false;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** /health: the process answers. /ready: every dependency answers within two seconds. */
export function installHealth(app: FastifyInstance, readChecks: () => Record<string, ReadinessCheck>): void {
  const hidden = { config: { public: true }, schema: { hide: true } };
  app.get("/health", hidden, async () => ok({ status: "up" }));
  app.get("/ready", hidden, async () => {
    const checks = readChecks();
    const names = Object.keys(checks);
    const results = await Promise.all(names.map((name) => passes(checks[name])));
    const failed = names.filter((_, i) => !results[i]);
    if (failed.length > 0) {
      const details = failed.map((field) => ({ field, issue: "did not answer" }));
      throw new ApiError(503, "UNAVAILABLE", `Not ready: ${failed.join(", ")} did not answer.`, details);
    }
    return ok({ status: "ready", checks: Object.fromEntries(names.map((n) => [n, "ok"])) });
  });
}
