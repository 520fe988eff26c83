/**
 * pnpm --filter @apiplat/currency-exchange ingest <file-or-dir>... [--history-days N]
 *
 * Loads recorded or downloaded central-bank feed files into the database the service uses (DATABASE_URL), so the
 * service has rates without network access.
 */
import path from "node:path";
import { openPlatform } from "@apiplat/service-kit";
import { migrate } from "@apiplat/storage";
import { ingestPaths } from "./rates/ingest.js";
import { UPDATE_CHANNEL } from "./app/rates-service.js";
import { RateStore } from "./store/rate-store.js";

function parseArgs(argv: string[]): { targets: string[]; historyDays: number | null } {
  const targets: string[] = [];
  let historyDays: number | null = null;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--history-days") {
      historyDays = Number(argv[++i]);
      if (!Number.isInteger(historyDays) || historyDays < 0) throw new Error("--history-days needs a non-negative integer");
    } else targets.push(argv[i]);
  }
  // pnpm runs scripts in the package folder; resolve paths against the caller's folder.
  const cwd = process.env.INIT_CWD ?? process.cwd();
  return { targets: targets.map((t) => path.resolve(cwd, t)), historyDays };
}

const { targets, historyDays } = parseArgs(process.argv.slice(2));
if (targets.length === 0) {
  console.error("usage: pnpm --filter @apiplat/currency-exchange ingest <file-or-directory>... [--history-days N]");
  process.exit(2);
}
const platform = await openPlatform();
try {
  await migrate(platform.db, "currency-exchange", new URL("../migrations", import.meta.url));
  const store = new RateStore(platform.db);
  const report = await ingestPaths(store, targets, platform.now, historyDays);
  for (const file of report) {
    const name = path.basename(file.file);
    console.log(file.skipped ? `skipped ${name}: ${file.skipped}` : `${file.source}\t${file.tables} tables\t${file.rates} rates\t${name}`);
  }
  await platform.kv.publish(UPDATE_CHANNEL, await store.version());
  const loaded = report.filter((f) => !f.skipped).length;
  console.log(`${loaded} feed file(s) loaded, ${report.length - loaded} skipped`);
} finally {
  await platform.close();
}
