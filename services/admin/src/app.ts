import type { ServiceName } from "@apiplat/config";
import { ApiError, errors } from "@apiplat/errors";
import { AccountStore } from "@apiplat/gateway-auth";
import { createBaseApp, migratePlatform, type PlatformDeps, type ServiceApp } from "@apiplat/service-kit";
import { tokenMatches } from "./auth/token.js";
import { adminRoutes } from "./routes/admin.js";

/** The admin API's recorded examples (`npm run record-examples -- admin`). */
export const ADMIN_EXAMPLES = new URL("../openapi-examples.json", import.meta.url);

interface AdminDeps extends PlatformDeps {
  /** The bearer token every admin route requires. */
  adminToken: string;
  /** The services this platform deploys: the only ones an account may subscribe to and be billed for. */
  deployed: readonly ServiceName[];
}

/** The operator's API: accounts, subscriptions, keys, usage and invoices, behind ADMIN_TOKEN. */
export async function buildAdminApp(deps: AdminDeps): Promise<ServiceApp> {
  await migratePlatform(deps);
  const app = await createBaseApp({
    name: "admin",
    host: `admin.${deps.config.publicDomain}`,
    url: `http://127.0.0.1:${deps.config.adminPort}`,
    deps,
    gatewaySecurity: false,
    description: "Accounts, subscriptions, API keys, usage and invoices of the API platform.",
    examples: ADMIN_EXAMPLES,
  });
  app.addHook("onRequest", async (request) => {
    if (request.is404 || request.routeOptions.config?.public) return;
    if (!request.headers.authorization) throw new ApiError(401, "MISSING_ADMIN_TOKEN", "Send Authorization: Bearer <ADMIN_TOKEN>.");
    if (!tokenMatches(request.headers.authorization, deps.adminToken)) {
      throw errors.forbidden("INVALID_ADMIN_TOKEN", "The admin token is not valid.");
    }
  });
  await app.register(adminRoutes, { accounts: new AccountStore(deps.db), db: deps.db, kv: deps.kv, now: deps.now, deployed: deps.deployed });
  return app;
}
export { LOCAL_TOKEN_FILE, resolveAdminToken } from "./auth/token.js";
