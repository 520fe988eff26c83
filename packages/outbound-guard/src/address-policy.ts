import ipaddr from "ipaddr.js";

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * Which IP addresses outbound requests may reach: public unicast only, unless an allow-listed CIDR
 * (OUTBOUND_ALLOW_CIDRS) says otherwise. IPv4-mapped IPv6 addresses are judged as the IPv4 they carry;
 * other IPv6 forms that embed IPv4 (NAT64, 6to4, Teredo) are refused outright.
 */
export class AddressPolicy {
  private readonly allowed: [Address, number][];

  constructor(allowCidrs: readonly string[] = []) {
    this.allowed = allowCidrs.map((cidr) => ipaddr.parseCIDR(cidr));
  }

  allows(ip: string): boolean {
    if (!ipaddr.isValid(ip)) return false;
    let address: Address = ipaddr.parse(ip);
    if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
      address = (address as ipaddr.IPv6).toIPv4Address();
    }
    if (this.isAllowListed(address)) return true;
    return address.range() === "unicast";
  }

  private isAllowListed(address: Address): boolean {
    return this.allowed.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits));
  }
}
