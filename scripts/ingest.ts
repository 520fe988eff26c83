/**
 * `npm run ingest -- <service> [--source <name>[,<name>]] [--limit <records>] [--<flag> <value>...]`: fills a
 * service's catalogue from its sources (the named export `ingestion` of the service's package), recording each run
 * in the service's ingest_runs table. Re-running is safe: rows are upserted by natural key and unchanged rows are
 * left alone. Other flags (e.g. `--crawl <url> <url>`) are passed to the service's sources.
 *
 * `npm run ingest -- --all [--missing]`: every deployed catalogue service's dataset sources, one service after the
 * other. `--missing` runs only the sources without a succeeded run (a first start, or after a failed run), so that a
 * deployment can run it before every start (docker-compose's `catalogues`, the Kubernetes `catalogues` Job) and pay
 * seconds once the catalogues are loaded.
 *
 * Each source runs holding its lock (see the catalogue README): a run a replica is making of the same source is
 * waited for. When a run finishes, the service's replicas are told and drop their answer caches.
 *
 * Without DATABASE_URL it writes the local database of `npm start` (.data/postgres): through the running server's
 * socket when `npm start` runs, else it starts that server for the run.
 */
import path from "node:path";
import { loadConfig, type PlatformConfig } from "@apiplat/config";
import { catalogueCoordination, runIngestions, terminalProgress, type IngestionSource, type ServiceIngestion } from "@apiplat/catalogue";
import { deployedServiceNames } from "@apiplat/deployment";
import { migrateService, openPlatform, serviceDatabase, type OpenPlatform, type ServiceManifest } from "@apiplat/service-kit";
import { useLocalPostgres } from "@apiplat/supervisor";

type CatalogueModule = { default: ServiceManifest<unknown, unknown>; ingestion: ServiceIngestion };

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

async function catalogueModule(service: string): Promise<CatalogueModule | null> {
  const module = (await import(`@apiplat/${service}`).catch(() => null)) as Partial<CatalogueModule> | null;
  return module?.ingestion && module.default ? (module as CatalogueModule) : null;
}

/** The sources that have never finished a run successfully. */
async function neverLoaded(platform: OpenPlatform, manifest: ServiceManifest<unknown, unknown>, sources: IngestionSource[]) {
  const db = await serviceDatabase(manifest, platform.db);
  const { rows } = await db.query<{ source: string }>("SELECT DISTINCT source FROM ingest_runs WHERE status = 'succeeded'");
  const loaded = new Set(rows.map((r) => r.source));
  return sources.filter((s) => !loaded.has(s.name));
}

/** Runs `sources` of one service; true when every run succeeded. */
async function ingest(platform: OpenPlatform, manifest: ServiceManifest<unknown, unknown>, sources: IngestionSource[], limit?: number) {
  let failed = false;
  const db = await serviceDatabase(manifest, platform.db);
  // Each source holding its lock, as the service's replicas do: a round a replica is running is waited for, not doubled.
  const coordination = catalogueCoordination(db, platform.config.databaseUrl);
  await runIngestions(db, sources, {
    coordination,
    datasetsDir: platform.config.datasetsDir,
    limit,
    now: () => new Date(),
    onProgress: terminalProgress(),
    onRun(summary) {
      if (process.stderr.isTTY) process.stderr.write("\n");
      const { skipped, ...counts } = summary;
      console.log(JSON.stringify({ service: manifest.name, ...counts, skipped_examples: skipped.slice(0, 5) }));
      if (summary.status === "failed") failed = true;
    },
  }).finally(() => coordination.close());
  return !failed;
}

function usage(message: string): never {
  console.error(message);
  process.exit(2);
}

const { service, flags } = parseArgs(process.argv.slice(2).filter((a) => a !== "--"));
const { source: wanted = [], limit: limitFlag = [], all, missing, ...options } = flags;
if (!service && !all) usage("usage: npm run ingest -- <service> [--source <name>[,<name>]] [--limit <records>] | --all [--missing]");
if (service && all) usage("Name one service or --all, not both.");
if (all && wanted.length) usage("--source names one service's sources: use it without --all.");
const limit = limitFlag[0] === undefined ? undefined : Number(limitFlag[0]);
if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) usage("--limit must be a positive whole number of records.");

const root = path.resolve(import.meta.dirname, "..");
const env = { ...process.env };
const localDatabase = env.DATABASE_URL
  ? undefined
  : await useLocalPostgres({ dataRoot: env.LOCAL_DATA_DIR ? path.resolve(env.LOCAL_DATA_DIR) : path.join(root, ".data") });
if (localDatabase) env.DATABASE_URL = localDatabase.url;
const config: PlatformConfig = loadConfig(env);

const targets: { module: CatalogueModule; sources: IngestionSource[] }[] = [];
for (const name of service ? [service] : deployedServiceNames()) {
  const module = await catalogueModule(name);
  if (!module) {
    if (service) usage(`${service}: no such catalogue service (its package must export \`ingestion\`).`);
    continue;
  }
  const sources = module.ingestion.sources({ config, options });
  const names = wanted.flatMap((w) => w.split(","));
  const unknown = names.filter((n) => !sources.some((s) => s.name === n));
  if (unknown.length) usage(`${name}: unknown source ${unknown.join(", ")}; its sources are ${sources.map((s) => s.name).join(", ")}.`);
  // By default the dataset sources; a service that answers the command's flags with live sources alone (a crawl's
  // seeds) gets those run.
  const fileSources = sources.filter((s) => !s.live);
  const selected = names.length ? sources.filter((s) => names.includes(s.name)) : fileSources.length ? fileSources : sources;
  targets.push({ module, sources: selected });
}

const platform = await openPlatform(config);
let succeeded = true;
try {
  for (const { module, sources } of targets) {
    await migrateService(module.default, platform.db);
    const run = missing ? await neverLoaded(platform, module.default, sources) : sources;
    if (!run.length) {
      console.log(JSON.stringify({ service: module.default.name, status: "loaded already", sources: sources.map((s) => s.name) }));
      continue;
    }
    succeeded = (await ingest(platform, module.default, run, limit)) && succeeded;
  }
} finally {
  await platform.close();
  await localDatabase?.stop();
}
process.exit(succeeded ? 0 : 1);
