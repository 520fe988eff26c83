/** A little-endian .mo file with the given pairs (ids sorted, as msgfmt writes them). */
export function buildMo(pairs: Array<[string, string]>): Buffer {
  const header = 28;
  const originals = header;
  const translations = originals + pairs.length * 8;
  let dataOffset = translations + pairs.length * 8;
  const tables = Buffer.alloc(dataOffset);
  tables.writeUInt32LE(0x950412de, 0);
  tables.writeUInt32LE(pairs.length, 8);
  tables.writeUInt32LE(originals, 12);
  tables.writeUInt32LE(translations, 16);
  const strings: Buffer[] = [];
  const place = (table: number, index: number, text: string) => {
    const bytes = Buffer.from(text + "\0", "utf8");
    tables.writeUInt32LE(bytes.length - 1, table + index * 8);
    tables.writeUInt32LE(dataOffset, table + index * 8 + 4);
    strings.push(bytes);
    dataOffset += bytes.length;
  };
  pairs.forEach(([id], index) => place(originals, index, id));
  pairs.forEach(([, text], index) => place(translations, index, text));
  return Buffer.concat([tables, ...strings]);
}
