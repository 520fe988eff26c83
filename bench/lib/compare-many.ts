/**
 * Several modes of one bench server, paired in one run: every mode up for the whole run, driven in turn in short runs
 * (see compareModes), each mode's overhead reported against the first and against the one before it.
 */
import autocannon from "autocannon";
import { withCoreZeroIsolated } from "./cores.js";
import { measure, median, requestFor, start, type CompareOptions, type Measurement } from "./compare.js";

function overhead(base: Measurement, other: Measurement) {
  return {
    throughput: Number((1 - other.requests_per_second / base.requests_per_second).toFixed(3)),
    cpu: Number((1 - other.requests_per_core_second / base.requests_per_core_second).toFixed(3)),
  };
}

const FIELDS = ["requests_per_second", "server_cpu_us_per_request", "redis_cpu_us_per_request", "postgres_cpu_us_per_request", "p50_ms", "p99_ms"] as const;

/** One server of the comparison: `mode` of `script` (the options' serverScript when not given), reported as `label`. */
export interface ModeSpec {
  label: string;
  mode: string;
  script?: string;
}

export async function compareManyModes(options: CompareOptions, specs: ModeSpec[], extraEnv: Record<string, string> = {}): Promise<Measurement[][]> {
  const modes = specs.map((spec) => spec.label);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 6);
  Object.assign(process.env, extraEnv);
  const results = await withCoreZeroIsolated(process.env.BENCH_ISOLATE === "1", async () => {
    const servers = [];
    for (const spec of specs) servers.push(await start(spec.script ?? options.serverScript, spec.mode));
    try {
      for (const server of servers) await autocannon({ ...requestFor(options, server), duration: 3 } as autocannon.Options);
      const all: Measurement[][] = [];
      for (let round = 1; round <= rounds; round++) {
        const measured: Measurement[] = [];
        for (let i = 0; i < modes.length; i++) measured.push(await measure(options, servers[i], modes[i]));
        console.table(measured);
        all.push(measured);
      }
      return all;
    } finally {
      for (const server of servers) process.kill(-server.child.pid!, "SIGTERM");
    }
  });
  const medians = (index: number) => Object.fromEntries(FIELDS.map((field) => [field, median(results.map((round) => round[index][field]))]));
  const overheadMedian = (from: number, to: number) => {
    const pairs = results.map((round) => overhead(round[from], round[to]));
    return { throughput: Number(median(pairs.map((p) => p.throughput)).toFixed(3)), cpu: Number(median(pairs.map((p) => p.cpu)).toFixed(3)) };
  };
  console.log(
    JSON.stringify({
      path: options.path,
      seconds: options.seconds,
      connections: options.connections,
      rounds,
      median: Object.fromEntries(modes.map((mode, index) => [mode, medians(index)])),
      overhead: Object.fromEntries(
        modes
          .slice(1)
          .flatMap((mode, i) => [
            [`${mode}_over_${modes[0]}`, overheadMedian(0, i + 1)],
            ...(i > 0 ? [[`${mode}_over_${modes[i]}`, overheadMedian(i, i + 1)]] : []),
          ]),
      ),
    }),
  );
  return results;
}
