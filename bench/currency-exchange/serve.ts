/**
 * Runs a seeded instance for trying the API by hand (the README's examples were captured this way):
 *
 *   bash scripts/pnpm.sh exec tsx bench/currency-exchange/serve.ts [port, default 3003]
 *
 * Prints the base URL and a MEGA subscriber's gateway headers; Ctrl-C drops the schema and the keys.
 */
import { startSeededInstance } from "./instance.js";

const harness = await startSeededInstance(Number(process.argv[2] ?? 3003));
console.log(JSON.stringify({ base: harness.base, headers: harness.headers }));
const stop = async () => {
  await harness.close();
  process.exit(0);
};
process.once("SIGINT", () => void stop());
process.once("SIGTERM", () => void stop());
