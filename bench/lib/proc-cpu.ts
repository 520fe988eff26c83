/** CPU time of processes, read from /proc (Linux): what a benchmark's server used, whatever else the machine did. */
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100;

/** The fields of /proc/<pid>/stat the benchmarks read. */
export interface ProcessStat {
  /** The program's name (at most 15 characters). */
  comm: string;
  parent: number;
  /** utime + stime, in seconds: all its threads. */
  ownCpuSeconds: number;
  /** cutime + cstime, in seconds: its children that exited and were waited for. */
  reapedChildrenCpuSeconds: number;
}

function parseStat(stat: string): ProcessStat {
  const close = stat.lastIndexOf(")");
  const fields = stat
    .slice(close + 2)
    .split(" ")
    .map(Number);
  return {
    comm: stat.slice(stat.indexOf("(") + 1, close),
    parent: fields[1],
    ownCpuSeconds: (fields[11] + fields[12]) / TICKS_PER_SECOND,
    reapedChildrenCpuSeconds: (fields[13] + fields[14]) / TICKS_PER_SECOND,
  };
}

/** CPU seconds (user + system) a process has used so far, all its threads included. */
export function cpuSeconds(pid: number): number {
  return parseStat(readFileSync(`/proc/${pid}/stat`, "utf8")).ownCpuSeconds;
}

/**
 * Waits until a process has used less than `busyShare` of a core over `windowMs` (its work after start, such as a
 * service reading ahead in the background, is done), or `timeoutMs` passed. Returns the milliseconds waited.
 */
export async function untilQuiet(pid: number, { busyShare = 0.1, windowMs = 500, timeoutMs = 60_000 } = {}): Promise<number> {
  const started = performance.now();
  for (;;) {
    const before = cpuSeconds(pid);
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const used = (cpuSeconds(pid) - before) * 1000;
    const waited = performance.now() - started;
    if (used < busyShare * windowMs || waited > timeoutMs) return Math.round(waited);
  }
}

/** Every running process, by pid (a scan costs about 1 ms for 80 processes). */
export function processTable(): Map<number, ProcessStat> {
  const table = new Map<number, ProcessStat>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      table.set(Number(entry), parseStat(readFileSync(`/proc/${entry}/stat`, "utf8")));
    } catch {
      // the process ended while we looked
    }
  }
  return table;
}

/** The processes `root` started, directly or through others. */
export function descendantsOf(table: Map<number, ProcessStat>, root: number): number[] {
  const isDescendant = (pid: number): boolean => {
    for (let p = table.get(pid)?.parent; p !== undefined && p > 1; p = table.get(p)?.parent) if (p === root) return true;
    return false;
  };
  return [...table.keys()].filter(isDescendant);
}

/**
 * CPU seconds used so far by one program (e.g. PostgreSQL: its postmaster and all its backends). A backend that exited
 * was waited for by the postmaster, which then holds its CPU as reaped-children time: counting that too keeps the
 * figure from falling when a connection closes mid-run.
 */
export function programCpuSeconds(program: string): number {
  let total = 0;
  for (const process of processTable().values()) {
    if (process.comm.startsWith(program)) total += process.ownCpuSeconds + process.reapedChildrenCpuSeconds;
  }
  return total;
}

/** Core 0's time so far from /proc/stat, in ticks: all of it, and what the hypervisor took from it (steal). */
export function coreZeroTicks(): { total: number; stolen: number; idle: number } {
  const line = readFileSync("/proc/stat", "utf8")
    .split("\n")
    .find((row) => row.startsWith("cpu0 "));
  // user nice system idle iowait irq softirq steal (guest time is counted inside user already)
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line!.split(/\s+/).slice(1, 9).map(Number);
  return { total: user + nice + system + idle + iowait + irq + softirq + steal, stolen: steal, idle: idle + iowait };
}

/** Shares of core 0's time between two readings: taken by the hypervisor (another machine ran), and left idle. */
export function coreZeroShares(before: ReturnType<typeof coreZeroTicks>, after = coreZeroTicks()): { stolen: number; idle: number } {
  const total = Math.max(1, after.total - before.total);
  const share = (ticks: number) => Math.round((ticks / total) * 1000) / 1000;
  return { stolen: share(after.stolen - before.stolen), idle: share(after.idle - before.idle) };
}
