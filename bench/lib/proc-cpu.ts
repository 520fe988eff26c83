/** CPU time of processes, read from /proc (Linux): what a benchmark's server used, whatever else the machine did. */
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100;

/** utime + stime of one /proc/<pid>/stat line, in seconds. */
function statCpuSeconds(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** CPU seconds (user + system) a process has used so far, all its threads included. */
export function cpuSeconds(pid: number): number {
  return statCpuSeconds(readFileSync(`/proc/${pid}/stat`, "utf8"));
}

/** CPU seconds used so far by every running process of one program (e.g. all PostgreSQL backends). */
export function programCpuSeconds(program: string): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.includes(`(${program}`)) total += statCpuSeconds(stat);
    } catch {
      // the process ended while we looked
    }
  }
  return total;
}
