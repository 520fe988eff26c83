/**
 * This tree against a baseline tree, paired in one run: a catalogue service's searches, uncached, served by two
 * servers at once (this checkout's and the baseline's, each on its own fresh test platform, both pinned to core 0),
 * driven in turn by wrk in short turns, the order swapped every round. On a shared machine whose speed drifts over
 * tens of seconds, runs minutes apart differ by more than most changes do; turns of a few seconds, alternated, see the
 * same machine.
 *
 *   bash scripts/pnpm.sh exec tsx bench/catalogue/paired.ts <baseline tree> [seconds per turn, default 5] [rounds, default 6]
 *
 * The baseline tree is a checkout with its own node_modules (e.g. `git worktree add ../base <commit>`, then
 * `bash scripts/pnpm.sh install --frozen-lockfile` there). Prints per round and scenario each server's requests per
 * second, p99 and CPU per request, and the medians of the rounds' ratios (this tree over the baseline).
 */
import { resolve } from "node:path";
import { startBenchServer } from "../lib/closed-loop.js";
import { median } from "../lib/compare.js";
import { withCoreZeroIsolated } from "../lib/cores.js";
import { cpuSeconds, untilQuiet } from "../lib/proc-cpu.js";
import { hasWrk, runWrk } from "../lib/wrk.js";
import { SCENARIOS } from "./scenarios.js";

interface Served {
  name: string;
  base: string;
  headers: Record<string, string>;
  pid: number;
  stop: () => void;
}

async function serve(tree: string, name: string): Promise<Served> {
  const server = await startBenchServer<{ headers: Record<string, string> }>(resolve(tree, "bench/catalogue/run.ts"), tree, ["--serve", "search-results"]);
  return { name, base: `http://127.0.0.1:${server.port}`, headers: server.headers, pid: server.pid, stop: server.stop };
}

interface Turn {
  rps: number;
  p99: number;
  cpuMs: number;
}

async function turn(server: Served, headers: Record<string, string> | undefined, paths: readonly string[], seconds: number): Promise<Turn> {
  const before = cpuSeconds(server.pid);
  const result = await withCoreZeroIsolated(true, async () => runWrk(server.base, { ...server.headers, ...headers }, paths, { connections: 20, seconds }));
  if (result.non_2xx > 0 || result.errors > 0) throw new Error(`${server.name}: ${result.non_2xx} answers outside 2xx, ${result.errors} errors`);
  const cpuMs = ((cpuSeconds(server.pid) - before) * 1000) / result.total;
  return { rps: result.requests_per_second, p99: result.latency_ms.p99, cpuMs: Math.round(cpuMs * 1000) / 1000 };
}

/** The paths of a scenario of fresh searches that the warm-up takes (a scenario of a few paths sends them all). */
const WARM_UP_PATHS = 2000;

async function main(): Promise<void> {
  const [baselineTree, secondsArg, roundsArg] = process.argv.slice(2);
  if (!baselineTree || !hasWrk) {
    console.error("usage: tsx bench/catalogue/paired.ts <baseline tree> [seconds per turn] [rounds] (needs wrk: bash scripts/bootstrap.sh bench)");
    process.exit(2);
  }
  const seconds = Number(secondsArg ?? 5);
  // The uncached text searches: what the p99 targets are about.
  const scenarios = SCENARIOS["search-results"].filter((s) => s.headers?.["cache-control"] === "no-cache");
  const rounds = Number(roundsArg ?? 6);
  const [baseline, current] = await Promise.all([serve(baselineTree, "baseline"), serve(process.cwd(), "this tree")]);
  try {
    const ratios = new Map<string, { rps: number[]; cpu: number[]; p99: number[] }>();
    // Warm-up: a few seconds of each scenario on each server (searches nobody asked before from a slice of their own).
    for (const server of [baseline, current]) for (const scenario of scenarios) await turn(server, scenario.headers, scenario.paths.slice(0, WARM_UP_PATHS), 3);
    // What either server still does in the background after its warm-up (reading ahead) is not a round's.
    for (const server of [baseline, current]) await untilQuiet(server.pid);
    for (let round = 0; round < rounds; round++) {
      for (const scenario of scenarios) {
        // Searches nobody asked before: each round takes a slice of its own (the warm-up's first 2,000 left out), the
        // same for both servers. A turn sends more searches than its slice holds (about 10,000 in 5 s against 4,666
        // for six rounds of 30,000 queries), so each is searched about twice, the second time with its compilation
        // kept: the ratios compare the two trees, and run.ts's figures are the target's.
        const share = Math.floor((scenario.paths.length - WARM_UP_PATHS) / rounds);
        const paths = scenario.fresh ? scenario.paths.slice(WARM_UP_PATHS + round * share, WARM_UP_PATHS + (round + 1) * share) : scenario.paths;
        const order = round % 2 === 0 ? [baseline, current] : [current, baseline];
        const turns = new Map<Served, Turn>();
        for (const server of order) turns.set(server, await turn(server, scenario.headers, paths, seconds));
        const [a, b] = [turns.get(baseline)!, turns.get(current)!];
        console.log(
          `round ${round + 1} ${scenario.name}: baseline ${a.rps}/s p99 ${a.p99} ms ${a.cpuMs} ms; this tree ${b.rps}/s p99 ${b.p99} ms ${b.cpuMs} ms`,
        );
        const ratio = ratios.get(scenario.name) ?? { rps: [], cpu: [], p99: [] };
        ratio.rps.push(b.rps / a.rps);
        ratio.cpu.push(b.cpuMs / a.cpuMs);
        ratio.p99.push(b.p99 / a.p99);
        ratios.set(scenario.name, ratio);
      }
    }
    for (const [name, ratio] of ratios) {
      const fixed = (values: number[]) => Math.round(median(values) * 1000) / 1000;
      console.log(
        `${name}: this tree over the baseline, medians of ${rounds} rounds: requests/s ${fixed(ratio.rps)}, CPU per request ${fixed(ratio.cpu)}, p99 ${fixed(ratio.p99)}`,
      );
    }
  } finally {
    baseline.stop();
    current.stop();
  }
}

await main();
