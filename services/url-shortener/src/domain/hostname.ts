export const MAX_HOSTNAME_LENGTH = 253;

/** A DNS host name a customer can point a CNAME from: labels of letters, digits and hyphens, a dot, no IP. */
export function normalizeHostname(input: string): { ok: true; host: string } | { ok: false; issue: string } {
  const host = input.trim().toLowerCase().replace(/\.$/, "");
  if (host.length === 0 || host.length > MAX_HOSTNAME_LENGTH) {
    return { ok: false, issue: `must be 1 to ${MAX_HOSTNAME_LENGTH} characters` };
  }
  const labels = host.split(".");
  if (labels.length < 2) return { ok: false, issue: "must be a fully qualified domain name such as go.example.com" };
  for (const label of labels) {
    if (!/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(label)) {
      return { ok: false, issue: "must consist of labels of letters, digits and inner hyphens, 1 to 63 characters each" };
    }
  }
  if (/^\d+$/.test(labels[labels.length - 1])) return { ok: false, issue: "must be a domain name, not an IP address" };
  return { ok: true, host };
}
