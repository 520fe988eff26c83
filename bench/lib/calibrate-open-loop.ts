/**
 * The load generator's own floor: bench/lib/open-loop.ts against a bare node:http server pinned to core 0 (when
 * taskset exists) that answers 204 at once. Any latency a service benchmark reports at the same rate includes this.
 *   bash scripts/pnpm.sh exec tsx bench/lib/calibrate-open-loop.ts [rate] [seconds]
 */
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { runOpenLoop } from "./open-loop.js";

const rate = Number(process.argv[2] ?? 10_000);
const seconds = Number(process.argv[3] ?? 10);
const PORT = 3990;

const server = `require("node:http").createServer((req, res) => { req.resume(); res.writeHead(204).end(); }).listen(${PORT}, "127.0.0.1", () => console.log("up"));`;
const command = [process.execPath, "-e", server];
const pinned = spawnSync("which", ["taskset"]).status === 0 ? ["taskset", "-c", "0", ...command] : command;
const child = spawn(pinned[0], pinned.slice(1), { stdio: ["ignore", "pipe", "inherit"] });
await once(child.stdout!, "data");
try {
  const run = (durationSeconds: number) =>
    runOpenLoop({ origin: `http://127.0.0.1:${PORT}`, rate, durationSeconds, connections: 64, request: () => ({ method: "GET", path: "/" }) });
  await run(2);
  console.log(JSON.stringify({ rate, seconds, ...(await run(seconds)) }));
} finally {
  child.kill();
}
