/** The part of node:dns/promises the verification needs; tests pass their own. */
export interface CnameResolver {
  resolveCname(hostname: string): Promise<string[]>;
}

type VerificationResult = { verified: true } | { verified: false; reason: string };

/** A custom domain is verified when one of its CNAME records names the service edge host. */
export async function verifyCname(resolver: CnameResolver, domain: string, edgeHost: string): Promise<VerificationResult> {
  let targets: string[];
  try {
    targets = await resolver.resolveCname(domain);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENODATA" || code === "ENOTFOUND") return { verified: false, reason: `${domain} has no CNAME record` };
    return { verified: false, reason: `the DNS lookup of ${domain} failed (${code ?? "error"})` };
  }
  const expected = edgeHost.toLowerCase();
  if (targets.some((target) => target.toLowerCase().replace(/\.$/, "") === expected)) return { verified: true };
  const found = targets.length > 0 ? targets.join(", ") : "nothing";
  return { verified: false, reason: `the CNAME of ${domain} points at ${found}, not at ${edgeHost}` };
}
