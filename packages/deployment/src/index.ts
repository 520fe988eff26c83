/**
 * The services this checkout deploys: every product service this package depends on (`@apiplat/<name>` in its
 * package.json), each as its manifest. The all-in-one start, the migration command, billing, the conformance and fuzz
 * suites and the benchmarks find services here, never by paths inside services/.
 */
import { readFileSync } from "node:fs";
import { SERVICE_NAMES, type ServiceName } from "@apiplat/config";
import { buildService, type PlatformDeps, type ServiceApp, type ServiceManifest } from "@apiplat/service-kit";

export interface DeployedService {
  name: ServiceName;
  manifest: ServiceManifest<unknown, unknown>;
  build(platform: PlatformDeps): Promise<ServiceApp>;
}

function isMissingPackage(error: unknown, name: string): boolean {
  const { code, message } = error as { code?: string; message?: string };
  return code === "ERR_MODULE_NOT_FOUND" && (message ?? "").includes(`@apiplat/${name}'`);
}

/** The names of the deployed services, in the product's order, without loading any of them. */
export function deployedServiceNames(): ServiceName[] {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { dependencies: Record<string, string> };
  const deployed = new Set(Object.keys(manifest.dependencies));
  return SERVICE_NAMES.filter((name) => deployed.has(`@apiplat/${name}`));
}

/** One deployed service, loaded alone (a test pays only for the service it runs); null when it is not deployed. */
export async function deployedService(name: ServiceName): Promise<DeployedService | null> {
  let module: { default?: ServiceManifest<unknown, unknown> };
  try {
    module = await import(`@apiplat/${name}`);
  } catch (error) {
    if (isMissingPackage(error, name)) return null;
    throw error;
  }
  const manifest = module.default;
  if (!manifest?.build) throw new Error(`@apiplat/${name} does not default-export its manifest (defineService)`);
  return { name, manifest, build: (platform) => buildService(manifest, platform) };
}

export async function deployedServices(): Promise<DeployedService[]> {
  const found: DeployedService[] = [];
  for (const name of deployedServiceNames()) {
    const service = await deployedService(name);
    if (service) found.push(service);
  }
  return found;
}
