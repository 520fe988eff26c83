import ipaddr from "ipaddr.js";

/**
 * "::ffff:127.0.0.1" -> "127.0.0.1"; anything unparsable is returned as it came. The address itself is
 * the platform's `request.ip`: X-Forwarded-For counts only through the proxies TRUST_PROXY names.
 */
export function displayIp(ip: string): string {
  try {
    return ipaddr.process(ip).toString();
  } catch {
    return ip;
  }
}
