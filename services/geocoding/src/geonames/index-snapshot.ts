import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Gazetteer, type GazetteerParts } from "../domain/gazetteer.js";
import type { LocalizedNameSource } from "../domain/types.js";
import type { GazetteerFiles } from "./geonames-files.js";

/**
 * The built index saved as one file: a JSON header, then the typed arrays, 8-byte aligned, so
 * that a restart maps them back in tens of milliseconds instead of rebuilding for seconds.
 */
const MAGIC = "GEOIDX01";
const ALIGNMENT = 8;
const ARRAY_TYPES = { Int32Array, Float64Array, Uint16Array, Uint8Array } as const;
type ArrayTypeName = keyof typeof ARRAY_TYPES;
type TypedArray = InstanceType<(typeof ARRAY_TYPES)[ArrayTypeName]>;

/** Source files whose code shapes the index: a change to any of them invalidates saved snapshots. */
const INDEX_CODE = [
  "../domain/gazetteer.ts",
  "../domain/name-index.ts",
  "../domain/normalize.ts",
  "../domain/kd-tree.ts",
  "../domain/types.ts",
  "./geonames-files.ts",
  "./index-snapshot.ts",
].map((file) => new URL(file, import.meta.url));

const align = (offset: number) => Math.ceil(offset / ALIGNMENT) * ALIGNMENT;

export function snapshotToBytes(parts: GazetteerParts): Buffer {
  const arrays: TypedArray[] = [];
  const value = JSON.stringify(parts, (_key, item: unknown) => {
    if (!ArrayBuffer.isView(item)) return item;
    arrays.push(item as TypedArray);
    return { $array: arrays.length - 1 };
  });
  const header = Buffer.from(
    JSON.stringify({ arrays: arrays.map((array) => ({ type: typeNameOf(array), length: array.length })) }).slice(0, -1) + `,"value":${value}}`,
  );
  let size = align(MAGIC.length + 4 + header.length);
  const offsets = arrays.map((array) => {
    const offset = size;
    size = align(size + array.byteLength);
    return offset;
  });
  const bytes = Buffer.alloc(size);
  bytes.write(MAGIC, 0, "latin1");
  bytes.writeUInt32LE(header.length, MAGIC.length);
  header.copy(bytes, MAGIC.length + 4);
  arrays.forEach((array, i) => Buffer.from(array.buffer, array.byteOffset, array.byteLength).copy(bytes, offsets[i]));
  return bytes;
}

export function snapshotFromBytes(file: Buffer): GazetteerParts {
  if (file.toString("latin1", 0, MAGIC.length) !== MAGIC) throw new Error("not a geocoding index snapshot");
  // Typed arrays need their offsets aligned in the underlying buffer.
  const bytes = file.byteOffset % ALIGNMENT === 0 ? file : Buffer.from(file);
  const headerLength = bytes.readUInt32LE(MAGIC.length);
  const header = JSON.parse(bytes.toString("utf8", MAGIC.length + 4, MAGIC.length + 4 + headerLength)) as {
    arrays: Array<{ type: ArrayTypeName; length: number }>;
    value: unknown;
  };
  let offset = align(MAGIC.length + 4 + headerLength);
  const arrays = header.arrays.map(({ type, length }) => {
    const ArrayType = ARRAY_TYPES[type];
    const array = new ArrayType(bytes.buffer as ArrayBuffer, bytes.byteOffset + offset, length);
    offset = align(offset + array.byteLength);
    return array;
  });
  return revive(header.value, arrays) as GazetteerParts;
}

function revive(value: unknown, arrays: TypedArray[]): unknown {
  if (Array.isArray(value)) return value;
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    if (typeof record.$array === "number") return arrays[record.$array];
    for (const key of Object.keys(record)) record[key] = revive(record[key], arrays);
  }
  return value;
}

function typeNameOf(array: TypedArray): ArrayTypeName {
  for (const name of Object.keys(ARRAY_TYPES) as ArrayTypeName[]) {
    if (array instanceof ARRAY_TYPES[name] && array.constructor === ARRAY_TYPES[name]) return name;
  }
  if (array instanceof Uint8Array) return "Uint8Array";
  throw new Error(`cannot store ${array.constructor.name} in a snapshot`);
}

/** The snapshot file for these inputs and this code, or undefined when the code cannot be read to key it. */
export function snapshotPath(cacheDir: string, files: GazetteerFiles): string | undefined {
  try {
    const hash = createHash("sha256").update(MAGIC);
    for (const file of [files.placesFile, files.admin1File]) {
      const stat = statSync(file);
      hash.update(`${file}\0${stat.size}\0${stat.mtimeMs}\0`);
    }
    for (const code of INDEX_CODE) hash.update(readFileSync(code));
    return join(cacheDir, `index-${hash.digest("hex").slice(0, 24)}.bin`);
  } catch {
    return undefined;
  }
}

export function readSnapshot(path: string, localizedNames: LocalizedNameSource): Gazetteer | undefined {
  try {
    return new Gazetteer(snapshotFromBytes(readFileSync(path)), localizedNames);
  } catch {
    return undefined; // missing or unreadable: the caller rebuilds from the files
  }
}

/** Writes atomically (a reader never sees half a file) and removes snapshots of older inputs or code. */
export function writeSnapshot(path: string, gazetteer: Gazetteer): void {
  const dir = join(path, "..");
  mkdirSync(dir, { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, snapshotToBytes(gazetteer.parts()));
  renameSync(temporary, path);
  for (const name of readdirSync(dir)) {
    if (/^index-[0-9a-f]{24}\.bin$/.test(name) && join(dir, name) !== path) rmSync(join(dir, name), { force: true });
  }
}
