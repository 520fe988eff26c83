import ipaddr from "ipaddr.js";
import { isIpAllowed } from "./ip-allowlist.js";

/** "::ffff:127.0.0.1" -> "127.0.0.1"; anything unparsable is returned as it came. */
export function displayIp(ip: string): string {
  try {
    return ipaddr.process(ip).toString();
  } catch {
    return ip;
  }
}

/**
 * The sender's address. X-Forwarded-For is believed only hop by hop from the right while each hop is
 * a trusted proxy (our reverse proxy), so a sender cannot pick its own address by sending the header.
 */
export function clientIp(socketIp: string, forwardedFor: string | undefined, trustedProxies: readonly string[]): string {
  let current = displayIp(socketIp);
  if (!forwardedFor || !isIpAllowed(current, trustedProxies)) return current;
  const hops = forwardedFor.split(",").map((hop) => hop.trim()).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    current = displayIp(hops[i]);
    if (!isIpAllowed(current, trustedProxies)) return current;
  }
  return current;
}
