/**
 * `npm run ingest -- <service> [--source <name>[,<name>]] [--limit <records>] [--<flag> <value>...]`: fills a
 * service's catalogue from its sources (the named export `ingestion` of the service's package), recording each run
 * in the service's ingest_runs table. Re-running is safe: rows are upserted by natural key and unchanged rows are
 * left alone. Other flags (e.g. `--crawl <url> <url>`) are passed to the service's sources.
 *
 * Without DATABASE_URL it writes the embedded database of `npm start` (.data/pglite): stop `npm start` first, as
 * only one process may open that database at a time.
 */
import path from "node:path";
import { loadConfig } from "@apiplat/config";
import { runIngestions, terminalProgress, type ServiceIngestion } from "@apiplat/catalogue";
import { migrateService, openPlatform, serviceDatabase, type ServiceManifest } from "@apiplat/service-kit";

function parseArgs(argv: string[]): { service?: string; flags: Record<string, string[]> } {
  const flags: Record<string, string[]> = {};
  let service: string | undefined;
  let current: string | undefined;
  for (const arg of argv) {
    if (arg.startsWith("--")) {
      current = arg.slice(2);
      flags[current] ??= [];
    } else if (current) flags[current].push(arg);
    else service ??= arg;
  }
  return { service, flags };
}

const { service, flags } = parseArgs(process.argv.slice(2).filter((a) => a !== "--"));
if (!service) {
  console.error("usage: npm run ingest -- <service> [--source <name>[,<name>]] [--limit <records>]");
  process.exit(2);
}
const module = (await import(`@apiplat/${service}`).catch(() => null)) as
  | { default?: ServiceManifest<unknown, unknown>; ingestion?: ServiceIngestion }
  | null;
if (!module?.ingestion || !module.default) {
  console.error(`${service}: no such catalogue service (its package must export \`ingestion\`).`);
  process.exit(2);
}

const root = path.resolve(import.meta.dirname, "..");
const env = { ...process.env };
if (!env.DATABASE_URL) env.EMBEDDED_DATA_DIR ??= path.join(root, ".data/pglite");
const config = loadConfig(env);
const { source: wanted = [], limit: limitFlag = [], ...options } = flags;
const sources = module.ingestion.sources({ config, options });
const names = wanted.flatMap((w) => w.split(","));
const unknown = names.filter((n) => !sources.some((s) => s.name === n));
if (unknown.length) {
  console.error(`${service}: unknown source ${unknown.join(", ")}; its sources are ${sources.map((s) => s.name).join(", ")}.`);
  process.exit(2);
}
// By default the dataset sources; a service that answers the command's flags with live sources alone (a crawl's
// seeds) gets those run.
const fileSources = sources.filter((s) => !s.live);
const selected = names.length ? sources.filter((s) => names.includes(s.name)) : fileSources.length ? fileSources : sources;
const limit = limitFlag[0] === undefined ? undefined : Number(limitFlag[0]);
if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
  console.error("--limit must be a positive whole number of records.");
  process.exit(2);
}

const platform = await openPlatform(config);
let failed = false;
try {
  await migrateService(module.default, platform.db);
  await runIngestions(await serviceDatabase(module.default, platform.db), selected, {
    datasetsDir: config.datasetsDir,
    limit,
    now: () => new Date(),
    onProgress: terminalProgress(),
    onRun(summary) {
      if (process.stderr.isTTY) process.stderr.write("\n");
      const { skipped, ...counts } = summary;
      console.log(JSON.stringify({ ...counts, skipped_examples: skipped.slice(0, 5) }));
      if (summary.status === "failed") failed = true;
    },
  });
} finally {
  await platform.close();
}
process.exit(failed ? 1 : 0);
