import { deployedServiceNames } from "@apiplat/deployment";
import { openPlatform, onShutdownSignal } from "@apiplat/service-kit";
import { buildAdminApp } from "./app.js";
import { LOCAL_TOKEN_FILE, resolveAdminToken } from "./auth/token.js";

const platform = await openPlatform();
const { token, generated } = resolveAdminToken(platform.config);
const app = await buildAdminApp({ ...platform, adminToken: token, deployed: deployedServiceNames() });
await app.listen({ port: platform.config.adminPort, host: platform.config.bindAddress });
if (generated) console.log(`Admin token (generated, also in ${LOCAL_TOKEN_FILE}): ${token}`);
onShutdownSignal(async () => {
  await app.close();
  await platform.close();
});
