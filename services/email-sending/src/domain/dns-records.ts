/** The DNS records a sending domain publishes, and whether what DNS answers matches them. */

export interface DnsRecord {
  purpose: "spf" | "dkim" | "return_path";
  type: "TXT" | "CNAME";
  name: string;
  value: string;
  verified: boolean;
}

interface DomainKeys {
  domain: string;
  selector: string;
  /** Base64 of the DER SubjectPublicKeyInfo, as the DKIM p= tag carries it. */
  publicKey: string;
}

/** Where the platform's own records live: the default sending domain. */
export interface PlatformDomains {
  /** The SPF record senders include: `_spf.<default domain>`. */
  spfInclude: string;
  /** The host a customer's return-path subdomain points to: `bounces.<default domain>`. */
  bounceHost: string;
}

export function platformDomains(defaultDomain: string): PlatformDomains {
  return { spfInclude: `_spf.${defaultDomain}`, bounceHost: `bounces.${defaultDomain}` };
}

export function returnPathHost(domain: string): string {
  return `bounces.${domain}`;
}

function dkimRecordValue(publicKey: string): string {
  return `v=DKIM1; k=rsa; p=${publicKey}`;
}

interface Verification {
  spf: boolean;
  dkim: boolean;
  returnPath: boolean;
}

export function recordsFor(keys: DomainKeys, platform: PlatformDomains, verification: Verification): DnsRecord[] {
  return [
    { purpose: "spf", type: "TXT", name: keys.domain, value: `v=spf1 include:${platform.spfInclude} ~all`, verified: verification.spf },
    {
      purpose: "dkim",
      type: "TXT",
      name: `${keys.selector}._domainkey.${keys.domain}`,
      value: dkimRecordValue(keys.publicKey),
      verified: verification.dkim,
    },
    { purpose: "return_path", type: "CNAME", name: returnPathHost(keys.domain), value: platform.bounceHost, verified: verification.returnPath },
  ];
}

/** A TXT answer comes in chunks of at most 255 characters; a record is their concatenation. */
const joined = (answers: string[][]) => answers.map((chunks) => chunks.join(""));

/** An SPF record that includes the platform's (one SPF record per domain, as RFC 7208 requires). */
export function spfMatches(answers: string[][], platform: PlatformDomains): boolean {
  const spf = joined(answers).filter((record) => /^v=spf1(\s|$)/i.test(record.trim()));
  return spf.length === 1 && spf[0].toLowerCase().split(/\s+/).includes(`include:${platform.spfInclude}`.toLowerCase());
}

/** A DKIM record whose p= tag is our public key (white space inside the key ignored). */
export function dkimMatches(answers: string[][], publicKey: string): boolean {
  return joined(answers).some((record) => {
    const tags = new Map(
      record.split(";").map((tag) => {
        const eq = tag.indexOf("=");
        return [tag.slice(0, eq).trim().toLowerCase(), tag.slice(eq + 1).replace(/\s+/g, "")] as [string, string];
      }),
    );
    return tags.get("p") === publicKey && (tags.get("k") ?? "rsa").toLowerCase() === "rsa";
  });
}

export function cnameMatches(answers: string[], target: string): boolean {
  return answers.some((answer) => answer.replace(/\.$/, "").toLowerCase() === target.toLowerCase());
}
