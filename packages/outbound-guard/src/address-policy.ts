import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * One block of the IANA special-purpose address registries as they stood in 2025
 * (https://www.iana.org/assignments/iana-ipv4-special-registry, .../iana-ipv6-special-registry), or of the few
 * neighbouring registries they leave out (multicast, deprecated IPv6 forms).
 */
export interface SpecialPurposeBlock {
  cidr: string;
  name: string;
  rfc: string;
  /**
   * The registry's "Globally Reachable" column: "n/a" where the registry says N/A (deprecated or protocol-defined
   * blocks) and for the blocks that are not in the special-purpose registry.
   */
  globallyReachable: boolean | "n/a";
  /** The block carries or leads to an IPv4 address (translation, tunnels): refused whatever the registry says. */
  reachesIPv4?: true;
}

export const IPV4_SPECIAL_PURPOSE: readonly SpecialPurposeBlock[] = [
  { cidr: "0.0.0.0/8", name: "This network", rfc: "RFC 791, Section 3.2", globallyReachable: false },
  { cidr: "0.0.0.0/32", name: "This host on this network", rfc: "RFC 1122, Section 3.2.1.3", globallyReachable: false },
  { cidr: "10.0.0.0/8", name: "Private-Use", rfc: "RFC 1918", globallyReachable: false },
  { cidr: "100.64.0.0/10", name: "Shared Address Space", rfc: "RFC 6598", globallyReachable: false },
  { cidr: "127.0.0.0/8", name: "Loopback", rfc: "RFC 1122, Section 3.2.1.3", globallyReachable: false },
  { cidr: "169.254.0.0/16", name: "Link Local", rfc: "RFC 3927", globallyReachable: false },
  { cidr: "172.16.0.0/12", name: "Private-Use", rfc: "RFC 1918", globallyReachable: false },
  { cidr: "192.0.0.0/24", name: "IETF Protocol Assignments", rfc: "RFC 6890, Section 2.1", globallyReachable: false },
  { cidr: "192.0.0.0/29", name: "IPv4 Service Continuity Prefix", rfc: "RFC 7335", globallyReachable: false },
  { cidr: "192.0.0.8/32", name: "IPv4 dummy address", rfc: "RFC 7600", globallyReachable: false },
  { cidr: "192.0.0.9/32", name: "Port Control Protocol Anycast", rfc: "RFC 7723", globallyReachable: true },
  { cidr: "192.0.0.10/32", name: "Traversal Using Relays around NAT Anycast", rfc: "RFC 8155", globallyReachable: true },
  { cidr: "192.0.0.170/32", name: "NAT64/DNS64 Discovery", rfc: "RFC 8880, RFC 7050 Section 2.2", globallyReachable: false },
  { cidr: "192.0.0.171/32", name: "NAT64/DNS64 Discovery", rfc: "RFC 8880, RFC 7050 Section 2.2", globallyReachable: false },
  { cidr: "192.0.2.0/24", name: "Documentation (TEST-NET-1)", rfc: "RFC 5737", globallyReachable: false },
  { cidr: "192.31.196.0/24", name: "AS112-v4", rfc: "RFC 7535", globallyReachable: true },
  { cidr: "192.52.193.0/24", name: "AMT", rfc: "RFC 7450", globallyReachable: true },
  { cidr: "192.88.99.0/24", name: "Deprecated (6to4 Relay Anycast)", rfc: "RFC 7526", globallyReachable: "n/a" },
  { cidr: "192.88.99.2/32", name: "6a44-relay anycast address", rfc: "RFC 6751", globallyReachable: false },
  { cidr: "192.168.0.0/16", name: "Private-Use", rfc: "RFC 1918", globallyReachable: false },
  { cidr: "192.175.48.0/24", name: "Direct Delegation AS112 Service", rfc: "RFC 7534", globallyReachable: true },
  { cidr: "198.18.0.0/15", name: "Benchmarking", rfc: "RFC 2544", globallyReachable: false },
  { cidr: "198.51.100.0/24", name: "Documentation (TEST-NET-2)", rfc: "RFC 5737", globallyReachable: false },
  { cidr: "203.0.113.0/24", name: "Documentation (TEST-NET-3)", rfc: "RFC 5737", globallyReachable: false },
  { cidr: "240.0.0.0/4", name: "Reserved", rfc: "RFC 1112, Section 4", globallyReachable: false },
  { cidr: "255.255.255.255/32", name: "Limited Broadcast", rfc: "RFC 8190, RFC 919 Section 7", globallyReachable: false },
  // Not in the special-purpose registry (it has a registry of its own), and no place for a unicast request either.
  { cidr: "224.0.0.0/4", name: "Multicast", rfc: "RFC 5771", globallyReachable: "n/a" },
];

export const IPV6_SPECIAL_PURPOSE: readonly SpecialPurposeBlock[] = [
  { cidr: "::1/128", name: "Loopback Address", rfc: "RFC 4291", globallyReachable: false },
  { cidr: "::/128", name: "Unspecified Address", rfc: "RFC 4291", globallyReachable: false },
  // Never looked up in practice: AddressPolicy judges a mapped address as the IPv4 address it carries.
  { cidr: "::ffff:0:0/96", name: "IPv4-mapped Address", rfc: "RFC 4291", globallyReachable: false, reachesIPv4: true },
  { cidr: "64:ff9b::/96", name: "IPv4-IPv6 Translat.", rfc: "RFC 6052", globallyReachable: true, reachesIPv4: true },
  { cidr: "64:ff9b:1::/48", name: "IPv4-IPv6 Translat.", rfc: "RFC 8215", globallyReachable: false, reachesIPv4: true },
  { cidr: "100::/64", name: "Discard-Only Address Block", rfc: "RFC 6666", globallyReachable: false },
  { cidr: "100:0:0:1::/64", name: "Dummy IPv6 Prefix", rfc: "RFC 9780", globallyReachable: false },
  { cidr: "2001::/23", name: "IETF Protocol Assignments", rfc: "RFC 2928", globallyReachable: false },
  { cidr: "2001::/32", name: "TEREDO", rfc: "RFC 4380, RFC 8190", globallyReachable: "n/a", reachesIPv4: true },
  { cidr: "2001:1::1/128", name: "Port Control Protocol Anycast", rfc: "RFC 7723", globallyReachable: true },
  { cidr: "2001:1::2/128", name: "Traversal Using Relays around NAT Anycast", rfc: "RFC 8155", globallyReachable: true },
  { cidr: "2001:1::3/128", name: "DNS-SD Service Registration Protocol Anycast", rfc: "RFC 9665", globallyReachable: true },
  { cidr: "2001:2::/48", name: "Benchmarking", rfc: "RFC 5180, RFC Errata 1752", globallyReachable: false },
  { cidr: "2001:3::/32", name: "AMT", rfc: "RFC 7450", globallyReachable: true },
  { cidr: "2001:4:112::/48", name: "AS112-v6", rfc: "RFC 7535", globallyReachable: true },
  { cidr: "2001:10::/28", name: "Deprecated (previously ORCHID)", rfc: "RFC 4843", globallyReachable: "n/a" },
  { cidr: "2001:20::/28", name: "ORCHIDv2", rfc: "RFC 7343", globallyReachable: true },
  { cidr: "2001:30::/28", name: "Drone Remote ID Protocol Entity Tags (DETs) Prefix", rfc: "RFC 9374", globallyReachable: true },
  { cidr: "2001:db8::/32", name: "Documentation", rfc: "RFC 3849", globallyReachable: false },
  { cidr: "2002::/16", name: "6to4", rfc: "RFC 3056", globallyReachable: "n/a", reachesIPv4: true },
  { cidr: "2620:4f:8000::/48", name: "Direct Delegation AS112 Service", rfc: "RFC 7534", globallyReachable: true },
  { cidr: "3fff::/20", name: "Documentation", rfc: "RFC 9637", globallyReachable: false },
  { cidr: "5f00::/16", name: "Segment Routing (SRv6) SIDs", rfc: "RFC 9602", globallyReachable: false },
  { cidr: "fc00::/7", name: "Unique-Local", rfc: "RFC 4193, RFC 8190", globallyReachable: false },
  { cidr: "fe80::/10", name: "Link-Local Unicast", rfc: "RFC 4291", globallyReachable: false },
  // Outside global unicast, so refused anyway; named here so that a refusal can say what the address is.
  { cidr: "::/96", name: "IPv4-compatible Address (deprecated)", rfc: "RFC 4291, Section 2.5.5.1", globallyReachable: "n/a", reachesIPv4: true },
  { cidr: "fec0::/10", name: "Site-Local (deprecated)", rfc: "RFC 3879", globallyReachable: "n/a" },
  { cidr: "ff00::/8", name: "Multicast", rfc: "RFC 4291", globallyReachable: "n/a" },
];

/** The only IPv6 addresses that may be reached at all (then minus the special-purpose blocks inside it). */
export const IPV6_GLOBAL_UNICAST = "2000::/3";

interface ParsedBlock {
  block: SpecialPurposeBlock;
  network: Address;
  bits: number;
}

/** Most specific first, so that a globally reachable block inside a refused one (192.0.0.9 in 192.0.0.0/24) wins. */
function parseBlocks(blocks: readonly SpecialPurposeBlock[]): ParsedBlock[] {
  return blocks
    .map((block) => {
      const [network, bits] = ipaddr.parseCIDR(block.cidr);
      return { block, network, bits };
    })
    .sort((a, b) => b.bits - a.bits);
}

const IPV4_BLOCKS = parseBlocks(IPV4_SPECIAL_PURPOSE);
const IPV6_BLOCKS = parseBlocks(IPV6_SPECIAL_PURPOSE);
const GLOBAL_UNICAST = ipaddr.parseCIDR(IPV6_GLOBAL_UNICAST);

/**
 * "::10.0.0.1" -> "::a00:1". ipaddr.js reads any IPv6 address written with a dotted IPv4 tail as IPv4-mapped
 * (it parses "::10.0.0.1" as "::ffff:a00:1"), so the tail is turned into hex before it parses.
 */
function hexIPv4Tail(ip: string): string {
  const tail = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  if (!tail) return ip;
  const [a, b, c, d] = tail.slice(2).map(Number);
  return `${tail[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/**
 * Strict parsing: only the forms node:net accepts (dotted-quad decimal IPv4, standard IPv6), never the octal, hex or
 * short IPv4 forms that ipaddr.js would also read, and no zone index.
 */
function parseAddress(ip: string): Address | null {
  const family = isIP(ip);
  if (family === 4) return ipaddr.IPv4.parse(ip);
  if (family === 6 && !ip.includes("%")) return ipaddr.IPv6.parse(hexIPv4Tail(ip));
  return null;
}

function mostSpecificBlock(address: Address): SpecialPurposeBlock | undefined {
  const blocks = address.kind() === "ipv4" ? IPV4_BLOCKS : IPV6_BLOCKS;
  return blocks.find(({ network, bits }) => network.kind() === address.kind() && address.match(network, bits))?.block;
}

/** The most specific special-purpose block holding the address, if any (to say what a refused address is). */
export function specialPurposeBlockOf(ip: string): SpecialPurposeBlock | undefined {
  const address = parseAddress(ip);
  return address ? mostSpecificBlock(address) : undefined;
}

/**
 * Which IP addresses outbound requests may reach: only globally reachable unicast, unless an allow-listed CIDR
 * (OUTBOUND_ALLOW_CIDRS) says otherwise.
 * - IPv4: any address outside the special-purpose blocks above, or inside one the IANA registry marks globally
 *   reachable.
 * - IPv6: global unicast (2000::/3) only, minus its special-purpose blocks on the same terms. Forms that carry or
 *   lead to IPv4 (IPv4-compatible, NAT64, 6to4, Teredo) are refused outright, except IPv4-mapped addresses
 *   (::ffff:a.b.c.d), which are judged as the IPv4 address they carry, allow-list included.
 * Anything that is not an IP address in standard notation is refused.
 */
export class AddressPolicy {
  private readonly allowed: [Address, number][];

  constructor(allowCidrs: readonly string[] = []) {
    this.allowed = allowCidrs.map((cidr) => ipaddr.parseCIDR(cidr));
  }

  allows(ip: string): boolean {
    let address = parseAddress(ip);
    if (!address) return false;
    if (address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress()) address = address.toIPv4Address();
    if (this.isAllowListed(address)) return true;
    if (address instanceof ipaddr.IPv6 && !address.match(GLOBAL_UNICAST)) return false;
    const block = mostSpecificBlock(address);
    return block === undefined || (block.globallyReachable === true && !block.reachesIPv4);
  }

  private isAllowListed(address: Address): boolean {
    return this.allowed.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits));
  }
}
