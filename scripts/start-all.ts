/**
 * `npm start`: every implemented service in one process, each its own Fastify app on its own port,
 * plus the admin API. Without DATABASE_URL / REDIS_URL they share an embedded PostgreSQL (PGlite,
 * persisted in .data/pglite) and an in-process store.
 */
import path from "node:path";
import { loadConfig, serviceEndpoint } from "@apiplat/config";
import { installServiceSignals, onShutdownSignal, openPlatform, type ServiceApp } from "@apiplat/service-kit";
import { buildAdminApp, LOCAL_TOKEN_FILE, resolveAdminToken } from "@apiplat/admin";
import { deployedServiceNames, deployedServices } from "@apiplat/deployment";
import { startTracing } from "@apiplat/tracing";

const root = path.resolve(import.meta.dirname, "..");
const env = { ...process.env };
if (!env.DATABASE_URL) env.EMBEDDED_DATA_DIR ??= path.join(root, ".data/pglite");
env.BIND_ADDRESS ??= "127.0.0.1";
const config = loadConfig(env);

// One process serves every service: its spans name the service in apiplat.service.
const tracing = await startTracing("apiplat", env);
const platform = await openPlatform(config);
const apps: ServiceApp[] = [];
const lines: string[] = [];
const url = (port: number) => `http://${config.bindAddress === "0.0.0.0" ? "127.0.0.1" : config.bindAddress}:${port}`;

const { token, generated } = resolveAdminToken(config);
const admin = await buildAdminApp({ ...platform, adminToken: token, deployed: deployedServiceNames() });
await admin.listen({ port: config.adminPort, host: config.bindAddress });
apps.push(admin);

for (const service of await deployedServices()) {
  const { port, host } = serviceEndpoint(config, service.name);
  try {
    const app = await service.build(platform);
    await app.listen({ port, host: config.bindAddress });
    installServiceSignals(app);
    apps.push(app);
    lines.push(`  ${service.name.padEnd(18)} ${url(port).padEnd(24)} X-Gateway-Host: ${host}`);
  } catch (error) {
    lines.push(`  ${service.name.padEnd(18)} did not start: ${(error as Error).message}`);
  }
}

console.log(`
API platform is up (${config.databaseUrl ? "PostgreSQL" : `embedded PostgreSQL in ${path.relative(root, config.embeddedDataDir ?? "") || "memory"}`}, ${config.redisUrl ? "Redis" : "in-process cache"}).

  admin API          ${url(config.adminPort).padEnd(24)} Authorization: Bearer ${generated ? token : "<ADMIN_TOKEN>"}
${lines.join("\n")}

Docs of each service at <url>/docs, OpenAPI at <url>/openapi.json.${generated ? `\nThe admin token was generated for this run and written to ${path.relative(root, LOCAL_TOKEN_FILE)}.` : ""}

Make an account with a key for every deployed service (in another terminal):
  npm run admin -- quickstart "my account" PRO
  export KEY=gk_...        # the key it printed
then call a service with that key:
  curl -H "X-Gateway-Key: $KEY" -H "X-Gateway-Host: text-toolkit.api.local" "${url(serviceEndpoint(config, "text-toolkit").port)}/uuid?count=2"
`);

onShutdownSignal(async () => {
  await Promise.all(apps.map((app) => app.close()));
  await platform.close();
  await tracing?.shutdown();
});
