import { chmodSync, lstatSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";

const GROUP_OR_OTHER = 0o077;

/**
 * Makes the embedded database's folder ready and private: created 0700 when missing, refused when another user owns
 * it, and every file or folder under it that the group or others could reach is made owner-only (0600 / 0700).
 * Returns the paths whose mode was narrowed (older versions wrote 0666 files).
 */
export function prepareDataDir(dir: string): string[] {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const uid = process.getuid?.();
  const owner = lstatSync(dir).uid;
  if (uid !== undefined && owner !== uid) {
    throw new Error(`The embedded database folder ${dir} belongs to user id ${owner}, not to this user (${uid}): run the platform as its owner or set EMBEDDED_DATA_DIR to a folder of your own.`);
  }
  const narrowed: string[] = [];
  const visit = (entry: string) => {
    const stats = lstatSync(entry);
    if (stats.isSymbolicLink()) return;
    if (stats.mode & GROUP_OR_OTHER) {
      chmodSync(entry, stats.mode & 0o700);
      narrowed.push(entry);
    }
    if (stats.isDirectory()) for (const name of readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(dir);
  return narrowed;
}
