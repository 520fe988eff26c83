import { describe, expect, it } from "vitest";
import { isApiError } from "@apiplat/errors";
import { AddressPolicy, createOutboundClient, IPV4_SPECIAL_PURPOSE, IPV6_SPECIAL_PURPOSE, specialPurposeBlockOf } from "../src/index.js";

/**
 * The IANA IPv4 and IPv6 Special-Purpose Address Registries (2025), transcribed here independently of the code's
 * table: block, then the "Globally Reachable" column (true, false or n/a). The last lines of each family are the
 * neighbouring blocks the code adds (multicast, deprecated IPv6 forms).
 */
const REGISTRY = `
0.0.0.0/8 false
0.0.0.0/32 false
10.0.0.0/8 false
100.64.0.0/10 false
127.0.0.0/8 false
169.254.0.0/16 false
172.16.0.0/12 false
192.0.0.0/24 false
192.0.0.0/29 false
192.0.0.8/32 false
192.0.0.9/32 true
192.0.0.10/32 true
192.0.0.170/32 false
192.0.0.171/32 false
192.0.2.0/24 false
192.31.196.0/24 true
192.52.193.0/24 true
192.88.99.0/24 n/a
192.88.99.2/32 false
192.168.0.0/16 false
192.175.48.0/24 true
198.18.0.0/15 false
198.51.100.0/24 false
203.0.113.0/24 false
240.0.0.0/4 false
255.255.255.255/32 false
224.0.0.0/4 n/a
::1/128 false
::/128 false
::ffff:0:0/96 false
64:ff9b::/96 true
64:ff9b:1::/48 false
100::/64 false
100:0:0:1::/64 false
2001::/23 false
2001::/32 n/a
2001:1::1/128 true
2001:1::2/128 true
2001:1::3/128 true
2001:2::/48 false
2001:3::/32 true
2001:4:112::/48 true
2001:10::/28 n/a
2001:20::/28 true
2001:30::/28 true
2001:db8::/32 false
2002::/16 n/a
2620:4f:8000::/48 true
3fff::/20 false
5f00::/16 false
fc00::/7 false
fe80::/10 false
::/96 n/a
fec0::/10 n/a
ff00::/8 n/a
`;

/** Reachable from the global internet, yet refused: they carry or lead to IPv4 (NAT64 here; mapped ones are judged as IPv4). */
const REACHES_IPV4 = new Set(["64:ff9b::/96"]);

interface Range {
  cidr: string;
  family: 4 | 6;
  first: bigint;
  last: bigint;
  bits: number;
  reachable: boolean | "n/a";
}

function toBigInt(ip: string): bigint {
  if (!ip.includes(":")) return ip.split(".").reduce((n, part) => (n << 8n) | BigInt(part), 0n);
  const [head, tail = ""] = ip.split("::");
  const groups = (text: string) => (text === "" ? [] : text.split(":"));
  const missing = 8 - groups(head).length - groups(tail).length;
  const all = ip.includes("::") ? [...groups(head), ...Array(missing).fill("0"), ...groups(tail)] : groups(ip);
  return all.reduce((n, group) => (n << 16n) | BigInt(`0x${group}`), 0n);
}

/** Written out in full (no "::"), which is also a form the policy must read. */
function fromBigInt(value: bigint, family: 4 | 6): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join(".");
  return Array.from({ length: 8 }, (_, i) => ((value >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(":");
}

const RANGES: Range[] = REGISTRY.trim()
  .split("\n")
  .map((line) => {
    const [cidr, reachable] = line.split(" ");
    const [ip, bitsText] = cidr.split("/");
    const family = ip.includes(":") ? 6 : 4;
    const bits = Number(bitsText);
    const hostBits = BigInt((family === 4 ? 32 : 128) - bits);
    const first = toBigInt(ip);
    return { cidr, family, first, last: first + (1n << hostBits) - 1n, bits, reachable: reachable === "n/a" ? "n/a" : reachable === "true" };
  });

/** The test's own verdict: the most specific registry block decides; IPv6 must also be global unicast. */
function expectedVerdict(value: bigint, family: 4 | 6): boolean {
  if (family === 6 && value >> 96n === 0xffffn) return expectedVerdict(value & 0xffffffffn, 4);
  const holding = RANGES.filter((r) => r.family === family && r.first <= value && value <= r.last).sort((a, b) => b.bits - a.bits)[0];
  if (family === 6 && value >> 125n !== 1n) return false;
  return holding === undefined || (holding.reachable === true && !REACHES_IPV4.has(holding.cidr));
}

const policy = new AddressPolicy();

describe("the special-purpose table", () => {
  it("holds every block of both IANA registries with the registry's Globally Reachable column", () => {
    const table = [...IPV4_SPECIAL_PURPOSE, ...IPV6_SPECIAL_PURPOSE].map((b) => `${b.cidr} ${b.globallyReachable === "n/a" ? "n/a" : b.globallyReachable}`);
    expect(table.sort()).toEqual(REGISTRY.trim().split("\n").sort());
  });

  it("names each block and its RFC", () => {
    for (const block of [...IPV4_SPECIAL_PURPOSE, ...IPV6_SPECIAL_PURPOSE]) {
      expect(block.name.length).toBeGreaterThan(2);
      expect(block.rfc).toMatch(/^RFC \d+/);
    }
  });

  it("says which block an address is in, the most specific one first", () => {
    expect(specialPurposeBlockOf("169.254.169.254")).toMatchObject({ name: "Link Local", rfc: "RFC 3927" });
    expect(specialPurposeBlockOf("192.0.0.9")).toMatchObject({ name: "Port Control Protocol Anycast" });
    expect(specialPurposeBlockOf("192.0.0.200")).toMatchObject({ name: "IETF Protocol Assignments" });
    expect(specialPurposeBlockOf("::a9fe:a9fe")).toMatchObject({ name: "IPv4-compatible Address (deprecated)" });
    expect(specialPurposeBlockOf("::10.0.0.1")).toMatchObject({ name: "IPv4-compatible Address (deprecated)" });
    expect(specialPurposeBlockOf("2001::1")).toMatchObject({ name: "TEREDO" });
    expect(specialPurposeBlockOf("8.8.8.8")).toBeUndefined();
  });
});

describe("AddressPolicy over the whole registry", () => {
  const cases = RANGES.flatMap((range) => {
    const inside = range.first + (range.last - range.first) / 2n;
    return [
      ["first", range.first],
      ["inside", inside],
      ["last", range.last],
    ].map(([where, value]) => {
      const address = fromBigInt(value as bigint, range.family);
      return { name: `${range.cidr} ${where} ${address}`, address, verdict: expectedVerdict(value as bigint, range.family) };
    });
  });

  it.each(cases)("$name", ({ address, verdict }) => {
    expect(policy.allows(address)).toBe(verdict);
  });

  it("refuses every address of a block the registry does not mark globally reachable", () => {
    const refusedBlocks = RANGES.filter((r) => r.reachable !== true && r.cidr !== "::ffff:0:0/96");
    for (const range of refusedBlocks) {
      const inside = fromBigInt(range.first + (range.last - range.first) / 3n, range.family);
      const nested = RANGES.some((r) => r.bits > range.bits && r.family === range.family && r.first <= toBigInt(inside) && toBigInt(inside) <= r.last);
      if (!nested) expect(policy.allows(inside), `${range.cidr}: ${inside}`).toBe(false);
    }
  });
});

describe("AddressPolicy", () => {
  it.each([
    // IPv4-compatible IPv6 (::/96), the forms that reached 10.0.0.1, loopback and the metadata address.
    "::10.0.0.1",
    "::a00:1",
    "::a9fe:a9fe",
    "::169.254.169.254",
    "::7f00:1",
    "::127.0.0.1",
    "0:0:0:0:0:0:a9fe:a9fe",
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.100.100.200",
    "0.0.0.0",
    "::1",
    "::",
    "fe80::1",
    "fe80::1%eth0",
    "fd00:ec2::254",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "::ffff:a9fe:a9fe",
    "64:ff9b::7f00:1",
    "64:ff9b::169.254.169.254",
    "64:ff9b:1::a9fe:a9fe",
    "2002:7f00:1::1",
    "2002:a9fe:a9fe::1",
    "2001:0:4136:e378:8000:63bf:5601:5601",
    "224.0.0.1",
    "239.255.255.250",
    "255.255.255.255",
    "ff02::1",
    "4000::1",
    "fec0::1",
    "3fff::1",
    "5f00::1",
    "2001:db8::1",
  ])("refuses %s", (ip) => expect(policy.allows(ip)).toBe(false));

  it.each(["0177.0.0.1", "2130706433", "0x7f.1", "127.1", "010.8.8.8", "8.8.8", "", "example.com", "[::1]", "1.2.3.4.5"])(
    "refuses %j, which is not an address in standard notation",
    (text) => expect(policy.allows(text)).toBe(false),
  );

  it.each([
    "93.184.216.34",
    "8.8.8.8",
    "1.1.1.1",
    "2606:4700:4700::1111",
    "2001:4860:4860::8888",
    "::ffff:8.8.8.8",
    "192.0.0.9",
    "2001:1::1",
    "2a00:1450:4001::1",
  ])("allows %s", (ip) => expect(policy.allows(ip)).toBe(true));

  it("lets an allow-listed CIDR through, and nothing that only embeds it", () => {
    const allowing = new AddressPolicy(["127.0.0.0/8", "::1/128"]);
    expect(allowing.allows("127.0.0.5")).toBe(true);
    expect(allowing.allows("::ffff:127.0.0.5")).toBe(true);
    expect(allowing.allows("::1")).toBe(true);
    expect(allowing.allows("::127.0.0.5")).toBe(false);
    expect(allowing.allows("64:ff9b::127.0.0.5")).toBe(false);
    expect(allowing.allows("10.0.0.1")).toBe(false);
    expect(allowing.allows("0.0.0.0")).toBe(false);
  });
});

describe("the client refuses the attacker's URLs before any connection", () => {
  const client = createOutboundClient();

  async function refusalOf(url: string) {
    try {
      await client.check(url, "url");
    } catch (error) {
      if (isApiError(error)) return { status: error.statusCode, code: error.code };
      throw error;
    }
    return null;
  }

  it.each([
    "http://[::10.0.0.1]/",
    "http://[::a9fe:a9fe]/latest/meta-data/",
    "http://[::7f00:1]/",
    "http://[::169.254.169.254]:80/",
    "http://[::ffff:169.254.169.254]/",
    "http://[64:ff9b::169.254.169.254]/",
    "http://[2002:a9fe:a9fe::]/",
    "http://[0:0:0:0:0:0:169.254.169.254]/",
    "http://[fe80::1%25eth0]/",
    // 169.254.169.254 in decimal, octal, hex, mixed and short forms; the URL parser turns each into the dotted quad.
    "http://2852039166/",
    "http://0251.0376.0251.0376/",
    "http://0xa9fea9fe/",
    "http://0xa9.0xfe.0xa9.0xfe/",
    "http://169.254.43518/",
    "http://169.16689662/",
    "http://0251.0xfe.43518/",
    // 10.0.0.1 and loopback the same ways.
    "http://167772161/",
    "http://012.0.0.1/",
    "http://0xa000001/",
    "http://10.1/",
    "http://2130706433/",
    "http://0x7f.1/",
    "http://127.1/",
    "http://0/",
    "http://0.0.0.0/",
    "http://[::]/",
    "http://[::1]/",
  ])("refuses %s with a 400", async (url) => {
    expect(await refusalOf(url)).toEqual({ status: 400, code: "VALIDATION_ERROR" });
  });
});
