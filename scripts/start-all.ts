/**
 * `npm start`: the admin API and every deployed service, each in a process of its own running the same main.ts as its
 * container, supervised (restarted when one dies, all stopped on Ctrl-C/SIGTERM). Without DATABASE_URL they share a
 * local PostgreSQL server in .data/postgres reached only through a Unix socket in .data/postgres-socket; without
 * REDIS_URL each process keeps its own in-process store.
 */
import path from "node:path";
import { loadConfig, serviceEndpoint, type ServiceName } from "@apiplat/config";
import { LOCAL_TOKEN_FILE, resolveAdminToken } from "@apiplat/admin";
import { deployedServiceNames } from "@apiplat/deployment";
import { startLocalPostgres, Supervisor, type ChildSpec, type LocalPostgres } from "@apiplat/supervisor";

const root = path.resolve(import.meta.dirname, "..");
const env: NodeJS.ProcessEnv = { ...process.env, BIND_ADDRESS: process.env.BIND_ADDRESS ?? "127.0.0.1" };
const started = Date.now();
const log = (line: string) => console.error(line);

// Before DATABASE_URL is set for the children: a local start may generate its admin token, a deployment may not.
const { token, generated } = resolveAdminToken(loadConfig(env));

let database: LocalPostgres | undefined;
if (!env.DATABASE_URL) {
  // LOCAL_DATA_DIR: another home for the local database (the tests of the local start use a scratch folder).
  try {
    database = await startLocalPostgres({ dataRoot: env.LOCAL_DATA_DIR ? path.resolve(env.LOCAL_DATA_DIR) : path.join(root, ".data"), log });
  } catch (error) {
    console.error(`npm start: ${(error as Error).message}`);
    process.exit(1);
  }
  env.DATABASE_URL = database.url;
}
const config = loadConfig(env);
const host = config.bindAddress === "0.0.0.0" ? "127.0.0.1" : config.bindAddress;
const url = (port: number) => `http://${host}:${port}`;

// START_ONLY=a,b runs the admin API and those services only (the tests of the local start use it).
const only = env.START_ONLY ? new Set(env.START_ONLY.split(",").map((name) => name.trim())) : undefined;
const services = deployedServiceNames().filter((name) => !only || only.has(name));

function childSpec(name: string, port: number, ownEnv: NodeJS.ProcessEnv = env): ChildSpec {
  return {
    name,
    command: [process.execPath, "--import", "tsx", path.join(root, "services", name, "src/main.ts")],
    env: ownEnv,
    cwd: root,
    healthUrl: `${url(port)}/health`,
  };
}

const supervisor = new Supervisor(
  [childSpec("admin", config.adminPort, { ...env, ADMIN_TOKEN: token }), ...services.map((name) => childSpec(name, serviceEndpoint(config, name).port))],
  { log },
);
let stopping: Promise<void> | undefined;
const stopAll = (signal: string) => {
  stopping ??= (async () => {
    log(`${signal} received: stopping every service (each finishes its requests), then the local database`);
    await supervisor.stop();
    await database?.stop();
  })().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
};
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => stopAll(signal));

const status = new Map((await supervisor.start()).map((child) => [child.name, child]));
const line = (name: ServiceName) => {
  const child = status.get(name)!;
  const { port, host: gatewayHost } = serviceEndpoint(config, name);
  if (!child.ready && child.pid !== undefined && child.restarts === 0)
    return `  ${name.padEnd(18)} still starting (pid ${child.pid}); the log says "supervisor: ${name} is serving now" when it answers on ${url(port)}`;
  if (!child.ready) return `  ${name.padEnd(18)} did not start${child.lastExit ? ` (${child.lastExit})` : ""}; the supervisor keeps restarting it`;
  return `  ${name.padEnd(18)} ${url(port).padEnd(24)} X-Gateway-Host: ${gatewayHost}  (pid ${child.pid})`;
};
const admin = status.get("admin")!;

console.log(`
API platform is up in ${((Date.now() - started) / 1000).toFixed(1)} s: one process per service (${database ? `local PostgreSQL in ${path.relative(root, database.dataDir)}, socket in ${path.relative(root, database.socketDir)}, pid ${database.pid}` : "PostgreSQL at DATABASE_URL"}, ${config.redisUrl ? "Redis" : "an in-process store in each process"}).

  admin API          ${(admin.ready ? url(config.adminPort) : "did not start").padEnd(24)} Authorization: Bearer ${generated ? token : "<ADMIN_TOKEN>"}  (pid ${admin.pid})
${services.map(line).join("\n")}

Docs of each service at <url>/docs, OpenAPI at <url>/openapi.json.${generated ? `\nThe admin token was generated for this run and written to ${path.relative(root, LOCAL_TOKEN_FILE)}.` : ""}

Make an account with a key for every deployed service (in another terminal):
  npm run admin -- quickstart "my account" PRO
  export KEY=gk_...        # the key it printed
then call a service with that key:
  curl -H "X-Gateway-Key: $KEY" -H "X-Gateway-Host: text-toolkit.api.local" "${url(serviceEndpoint(config, "text-toolkit").port)}/uuid?count=2"
`);
