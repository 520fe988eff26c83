/** CPU time of processes, read from /proc (Linux): what a benchmark's server used, whatever else the machine did. */
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100;

/** utime + stime of one /proc/<pid>/stat line, in seconds; with `reapedChildren`, plus cutime + cstime. */
function statCpuSeconds(stat: string, reapedChildren = false): number {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const own = Number(fields[11]) + Number(fields[12]);
  return (reapedChildren ? own + Number(fields[13]) + Number(fields[14]) : own) / TICKS_PER_SECOND;
}

/** CPU seconds (user + system) a process has used so far, all its threads included. */
export function cpuSeconds(pid: number): number {
  return statCpuSeconds(readFileSync(`/proc/${pid}/stat`, "utf8"));
}

/**
 * CPU seconds used so far by one program (e.g. PostgreSQL: its postmaster and all its backends). A backend that exited
 * was waited for by the postmaster, which then holds its CPU as reaped-children time: counting that too keeps the
 * figure from falling when a connection closes mid-run.
 */
export function programCpuSeconds(program: string): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.includes(`(${program}`)) total += statCpuSeconds(stat, true);
    } catch {
      // the process ended while we looked
    }
  }
  return total;
}
