import ipaddr from "ipaddr.js";

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** "203.0.113.7" -> "203.0.113.7/32"; "2001:db8::/32" stays; anything else is null. */
export function normalizeAllowlistEntry(entry: string): string | null {
  const text = entry.trim();
  // ipaddr.js accepts shorthand IPv4 ("1.2.3"); only the strict dotted and IPv6 forms are accepted here.
  const host = text.split("/")[0];
  if (!ipaddr.IPv4.isValidFourPartDecimal(host) && !ipaddr.IPv6.isValid(host)) return null;
  try {
    if (text.includes("/")) {
      const [address, bits] = ipaddr.parseCIDR(text);
      return `${address.toString()}/${bits}`;
    }
    if (!ipaddr.isValid(text)) return null;
    const address = ipaddr.parse(text);
    return `${address.toString()}/${address.kind() === "ipv4" ? 32 : 128}`;
  } catch {
    return null;
  }
}

function toRange(entry: string): Range {
  const [address, bits] = ipaddr.parseCIDR(entry);
  return [address, bits];
}

/** IPv4-mapped IPv6 senders ("::ffff:10.0.0.1") match IPv4 ranges. */
function parseSender(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  try {
    return ipaddr.process(ip);
  } catch {
    return null;
  }
}

export function isIpAllowed(ip: string, allowlist: readonly string[]): boolean {
  const sender = parseSender(ip);
  if (!sender) return false;
  return allowlist.some((entry) => {
    const [range, bits] = toRange(entry);
    return range.kind() === sender.kind() && sender.match([range, bits] as never);
  });
}
