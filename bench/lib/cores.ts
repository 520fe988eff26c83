/**
 * Keeping a benchmark's other processes off the measured server's core. The server runs pinned to core 0
 * (`taskset`); with isolation on, PostgreSQL, Redis and the calling process (the load generator) move to the
 * other cores for the run, so that nothing but the server uses core 0. Needs taskset and the right to change
 * those processes' affinity (root); without them it does nothing.
 */
import { spawnSync } from "node:child_process";
import { cpus } from "node:os";

export const canPin = spawnSync("which", ["taskset"]).status === 0;

/** `command` prefixed so that it runs on core 0 only, when taskset exists. */
export function onCoreZero(command: string[]): string[] {
  return canPin ? ["taskset", "-c", "0", ...command] : command;
}

function pinSupportProcesses(cpuList: string): void {
  const found = spawnSync("pgrep", ["-f", "postgres|redis-server"], { encoding: "utf8" }).stdout.split("\n").filter(Boolean);
  for (const pid of [...found, String(process.pid)]) spawnSync("taskset", ["-a", "-p", "-c", cpuList, pid], { stdio: "ignore" });
}

/** Runs `work` with PostgreSQL, Redis and this process off core 0, then gives them every core back. */
export async function withCoreZeroIsolated<T>(enabled: boolean, work: () => Promise<T>): Promise<T> {
  const all = cpus().length;
  if (!enabled || !canPin || all < 2) return work();
  pinSupportProcesses(`1-${all - 1}`);
  try {
    return await work();
  } finally {
    pinSupportProcesses(`0-${all - 1}`);
  }
}
