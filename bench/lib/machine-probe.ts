/**
 * How fast the measured core is at the moment, for a benchmark's record: the development machine is a 2-vCPU microVM
 * whose speed drifts, and the same search has cost twice the CPU in one half hour as in another. The probe times a
 * computation that fits in the core's own second-level cache and chains of dependent reads through 4 and 64 MB (a 4 MB chain
 * measured 20 to 315 ns a read here within minutes: the processor's third-level cache is shared). It records the
 * machine's state around a run; it does not predict the run (see docs/PERFORMANCE.md, 2026-11-30).
 *
 *   node --import tsx bench/lib/machine-probe.ts   # prints {"compute_ms":..,"memory_read_ns":{"4 MB":..,"64 MB":..}}
 *
 * machineProbe() runs it on core 0 (where the benchmarks pin their server) and returns what it printed.
 */
import { spawnSync } from "node:child_process";
import { seededRandom } from "@apiplat/testing";
import { onCoreZero } from "./cores.js";

export interface MachineProbe {
  /** The best of five runs of a fixed computation that fits in the core's own second-level cache (a sort of 16,384 numbers, repeated). */
  compute_ms: number;
  /** Nanoseconds per read of a chain of dependent reads in random order through arrays of these sizes. */
  memory_read_ns: Record<string, number>;
}

const MEMORY_SIZES_MB = [4, 64];
const READS = 2_000_000;

function computeMs(): number {
  let best = Infinity;
  const numbers = new Float64Array(16_384);
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    for (let repeat = 0; repeat < 20; repeat++) {
      const random = seededRandom(repeat);
      for (let i = 0; i < numbers.length; i++) numbers[i] = random();
      numbers.sort();
    }
    best = Math.min(best, performance.now() - started);
  }
  return Math.round(best * 10) / 10;
}

/** One cycle through every slot of an array of `megabytes`, in a random order, each read depending on the last. */
function memoryReadNs(megabytes: number): number {
  const slots = (megabytes * 1024 * 1024) / 4;
  const order = new Int32Array(slots);
  for (let i = 0; i < slots; i++) order[i] = i;
  const random = seededRandom(7);
  for (let i = slots - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const next = new Int32Array(slots);
  for (let i = 0; i < slots; i++) next[order[i]] = order[(i + 1) % slots];
  let at = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < READS; i++) at = next[at];
  const ns = Number(process.hrtime.bigint() - started) / READS;
  // Reading `at` keeps the chain from being optimized away.
  return at < 0 ? -1 : Math.round(ns * 10) / 10;
}

export function probe(): MachineProbe {
  return { compute_ms: computeMs(), memory_read_ns: Object.fromEntries(MEMORY_SIZES_MB.map((mb) => [`${mb} MB`, memoryReadNs(mb)])) };
}

/** The probe, run on core 0 in a process of its own; null when it could not run. */
export function machineProbe(): MachineProbe | null {
  const command = onCoreZero([process.execPath, "--import", "tsx", import.meta.filename]);
  const run = spawnSync(command[0], command.slice(1), { encoding: "utf8" });
  return run.status === 0 ? (JSON.parse(run.stdout) as MachineProbe) : null;
}

if (process.argv[1] === import.meta.filename) console.log(JSON.stringify(probe()));
