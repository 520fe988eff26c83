import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { isIPv4, isIPv6 } from "node:net";

const V4_RECORD = 10; // start u32, end u32, country 2 bytes
const V6_RECORD = 34; // start 16 bytes, end 16 bytes, country 2 bytes

/**
 * Country lookup over the country tables that ship inside the geoip-lite npm package (GeoLite2 data).
 * Reading only the country tables keeps ~15 MB in memory instead of the ~200 MB geoip-lite loads for
 * city data we do not use. Nothing is downloaded: the files are part of the installed package.
 */
export class CountryLookup {
  private constructor(
    private readonly v4: Buffer,
    private readonly v6: Buffer,
  ) {}

  static fromInstalledPackage(): CountryLookup {
    const require = createRequire(import.meta.url);
    const dataDir = join(dirname(require.resolve("geoip-lite/package.json")), "data");
    return new CountryLookup(readFileSync(join(dataDir, "geoip-country.dat")), readFileSync(join(dataDir, "geoip-country6.dat")));
  }

  /** ISO 3166-1 alpha-2 code, or null for private, reserved or unknown addresses. */
  country(ip: string): string | null {
    const mapped = ip.startsWith("::ffff:") ? ip.slice(7) : ip;
    if (isIPv4(mapped)) return this.lookupV4(ipv4ToNumber(mapped));
    if (isIPv6(mapped)) return this.lookupV6(ipv6ToBytes(mapped));
    return null;
  }

  private lookupV4(ip: number): string | null {
    let low = 0;
    let high = this.v4.length / V4_RECORD - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const offset = mid * V4_RECORD;
      if (ip < this.v4.readUInt32BE(offset)) high = mid - 1;
      else if (ip > this.v4.readUInt32BE(offset + 4)) low = mid + 1;
      else return countryAt(this.v4, offset + 8);
    }
    return null;
  }

  private lookupV6(ip: Buffer): string | null {
    let low = 0;
    let high = this.v6.length / V6_RECORD - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const offset = mid * V6_RECORD;
      if (ip.compare(this.v6, offset, offset + 16) < 0) high = mid - 1;
      else if (ip.compare(this.v6, offset + 16, offset + 32) > 0) low = mid + 1;
      else return countryAt(this.v6, offset + 32);
    }
    return null;
  }
}

function countryAt(buffer: Buffer, offset: number): string | null {
  const code = buffer.toString("latin1", offset, offset + 2).replace(/\0.*/, "");
  return /^[A-Z]{2}$/.test(code) ? code : null;
}

function ipv4ToNumber(ip: string): number {
  return ip.split(".").reduce((acc, part) => acc * 256 + Number(part), 0);
}

function ipv6ToBytes(ip: string): Buffer {
  const withoutZone = ip.split("%")[0];
  let groups: string[];
  const embeddedV4 = withoutZone.match(/(?<!\d)(\d+\.\d+\.\d+\.\d+)$/);
  let text = withoutZone;
  if (embeddedV4) {
    const n = ipv4ToNumber(embeddedV4[1]);
    text = withoutZone.slice(0, -embeddedV4[1].length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail !== undefined && tail !== "" ? tail.split(":") : [];
  if (tail === undefined) groups = headGroups;
  else groups = [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill("0"), ...tailGroups];
  const bytes = Buffer.alloc(16);
  groups.forEach((group, i) => bytes.writeUInt16BE(parseInt(group, 16) || 0, i * 2));
  return bytes;
}
