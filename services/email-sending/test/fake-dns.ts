import type { DnsResolver } from "../src/routes/domains.js";

/** DNS answers a test publishes; every other name does not exist (as a real resolver says with ENOTFOUND). */
export class FakeDns implements DnsResolver {
  readonly txt = new Map<string, string[][]>();
  readonly cname = new Map<string, string[]>();

  async resolveTxt(name: string): Promise<string[][]> {
    const answer = this.txt.get(name);
    if (!answer) throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: "ENOTFOUND" });
    return answer;
  }

  async resolveCname(name: string): Promise<string[]> {
    const answer = this.cname.get(name);
    if (!answer) throw Object.assign(new Error(`queryCname ENOTFOUND ${name}`), { code: "ENOTFOUND" });
    return answer;
  }

  /** Publishes what POST /domains asked for: TXT records split in 255-character chunks as DNS carries them. */
  publish(records: { type: string; name: string; value: string }[]): void {
    for (const r of records) {
      if (r.type === "TXT") this.txt.set(r.name, [r.value.match(/.{1,255}/g)!]);
      else this.cname.set(r.name, [r.value]);
    }
  }
}
