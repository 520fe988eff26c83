import { readFile, stat } from "node:fs/promises";
import { hostAndParents, hostOf, normalizeUrl } from "./url.js";

export interface BlocklistMatch {
  threatType: string;
  source: string;
}

export interface BlocklistEntries {
  hosts: Map<string, BlocklistMatch>;
  urls: Map<string, BlocklistMatch>;
}

/**
 * Parses one feed file. Two formats, recognised by content:
 * - URLhaus-style CSV: `"id","dateadded","url","url_status","last_online","threat","tags","urlhaus_link","reporter"`,
 *   lines starting with `#` are comments; every row's url is blocked exactly (after normalization), with its
 *   `threat` column as the threat type (e.g. malware_download -> MALWARE_DOWNLOAD).
 * - Host lists: one host per line, or hosts-file lines (`0.0.0.0 bad.example`); `#` starts a comment. A listed host
 *   blocks itself and every subdomain.
 */
export function parseFeed(text: string, source: string, into: BlocklistEntries): void {
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === "" || line.startsWith("#")) continue;
    if (line.startsWith('"')) addCsvRow(line, source, into);
    else addHostLine(line, source, into);
  }
}

function addCsvRow(line: string, source: string, into: BlocklistEntries): void {
  const fields = parseCsvLine(line);
  const normalized = fields[2] ? normalizeUrl(fields[2]) : null;
  if (!normalized?.ok) return;
  const threat =
    (fields[5] ?? "")
      .trim()
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, "_") || "MALWARE";
  into.urls.set(normalized.url, { threatType: threat, source });
}

function addHostLine(line: string, source: string, into: BlocklistEntries): void {
  const tokens = line.split("#")[0].trim().split(/\s+/);
  const candidate = tokens.length > 1 && /^(0\.0\.0\.0|127\.0\.0\.1|::1?)$/.test(tokens[0]) ? tokens[1] : tokens[0];
  const host = candidate?.toLowerCase().replace(/\.$/, "");
  if (!host || host === "localhost" || !/^[a-z0-9.-]+$/.test(host) || !host.includes(".")) return;
  into.hosts.set(host, { threatType: "BLOCKLISTED_HOST", source });
}

/** RFC 4180 fields of one line: quoted fields may contain commas and doubled quotes. */
export function parseCsvLine(line: string): string[] {
  const fields: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        current += '"';
        i++;
      } else if (char === '"') quoted = false;
      else current += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      fields.push(current);
      current = "";
    } else current += char;
  }
  fields.push(current);
  return fields;
}

/** A blocklist read from files, reloaded when a file's modification time changes. */
export class FileBlocklist {
  private entries: BlocklistEntries = { hosts: new Map(), urls: new Map() };
  private signature = "";

  constructor(private readonly files: readonly string[]) {}

  get size(): { hosts: number; urls: number } {
    return { hosts: this.entries.hosts.size, urls: this.entries.urls.size };
  }

  /** Re-reads the files when any changed; returns true when the lists were replaced. Throws on unreadable files. */
  async reload(force = false): Promise<boolean> {
    const stats = await Promise.all(this.files.map((file) => stat(file)));
    const signature = stats.map((s, i) => `${this.files[i]}:${s.mtimeMs}:${s.size}`).join("|");
    if (!force && signature === this.signature) return false;
    const next: BlocklistEntries = { hosts: new Map(), urls: new Map() };
    for (const file of this.files) parseFeed(await readFile(file, "utf8"), file, next);
    this.entries = next;
    this.signature = signature;
    return true;
  }

  match(normalizedUrl: string): BlocklistMatch | null {
    const exact = this.entries.urls.get(normalizedUrl);
    if (exact) return exact;
    for (const host of hostAndParents(hostOf(new URL(normalizedUrl)))) {
      const hit = this.entries.hosts.get(host);
      if (hit) return hit;
    }
    return null;
  }
}
