import { describe, expect, it } from "vitest";
import { FileBlocklist, parseCsvLine, parseFeed, type BlocklistEntries } from "@apiplat/url-safety";

describe("blocklist feeds", () => {
  it("parse host lists, hosts-file lines and URLhaus CSV", () => {
    const entries: BlocklistEntries = { hosts: new Map(), urls: new Map() };
    parseFeed("# comment\nbad.example\n0.0.0.0 worse.example # note\nlocalhost\n\n", "hosts", entries);
    parseFeed('"1","2026-01-01","http://x.example/a.exe","online","","malware_download","","",""', "csv", entries);
    expect([...entries.hosts.keys()]).toEqual(["bad.example", "worse.example"]);
    expect([...entries.urls.entries()]).toEqual([["http://x.example/a.exe", { threatType: "MALWARE_DOWNLOAD", source: "csv" }]]);
  });

  it("split quoted CSV fields with commas and doubled quotes", () => {
    expect(parseCsvLine('"a,b","say ""hi""",plain')).toEqual(["a,b", 'say "hi"', "plain"]);
  });

  it("match a listed host's subdomains but not its look-alikes", async () => {
    const list = new FileBlocklist([new URL("./fixtures/hosts.txt", import.meta.url).pathname]);
    await list.reload(true);
    expect(list.match("https://deep.sub.malware.example/x")?.threatType).toBe("BLOCKLISTED_HOST");
    expect(list.match("https://notmalware.example/")).toBeNull();
    expect(list.size).toEqual({ hosts: 3, urls: 0 });
  });
});
