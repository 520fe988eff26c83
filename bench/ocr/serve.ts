/**
 * Starts a listening OCR instance (test platform database schema, MEGA subscriber) and prints its URL and
 * gateway headers, for trying requests by hand and for capturing the README's examples. Ctrl-C stops it.
 *   bash scripts/pnpm.sh exec tsx bench/ocr/serve.ts
 */
import { startInstance } from "./instance.js";

const instance = await startInstance();
console.log(JSON.stringify({ url: instance.url, headers: instance.headers }));
const stop = async () => {
  await instance.close();
  process.exit(0);
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
