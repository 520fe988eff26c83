/** Reader of compiled zone files in the TZif format (RFC 8536, versions 1 to 4). */

export interface LocalTimeType {
  offsetSeconds: number;
  isDst: boolean;
  abbreviation: string;
}

export interface TzifData {
  version: number;
  /** Transition instants in seconds since the epoch, ascending. */
  transitionTimes: number[];
  /** Index into `types` of the type that starts at the matching transition. */
  transitionTypes: number[];
  types: LocalTimeType[];
  /** The POSIX TZ string that extends the table past its last transition, or "" when there is none. */
  footer: string;
}

const HEADER_BYTES = 44;

interface Header {
  version: number;
  isUtCount: number;
  isStdCount: number;
  leapCount: number;
  timeCount: number;
  typeCount: number;
  charCount: number;
}

export class TzifError extends Error {}

function readHeader(bytes: Buffer, at: number): Header {
  if (bytes.length < at + HEADER_BYTES || bytes.toString("latin1", at, at + 4) !== "TZif") {
    throw new TzifError("not a TZif file");
  }
  const versionByte = bytes[at + 4];
  const version = versionByte === 0 ? 1 : versionByte - 0x30;
  if (version < 1 || version > 4) throw new TzifError(`unsupported TZif version byte ${versionByte}`);
  const count = (index: number) => bytes.readUInt32BE(at + 20 + index * 4);
  return {
    version,
    isUtCount: count(0),
    isStdCount: count(1),
    leapCount: count(2),
    timeCount: count(3),
    typeCount: count(4),
    charCount: count(5),
  };
}

function dataBlockLength(h: Header, timeSize: 4 | 8): number {
  return h.timeCount * timeSize + h.timeCount + h.typeCount * 6 + h.charCount + h.leapCount * (timeSize + 4) + h.isStdCount + h.isUtCount;
}

function readAbbreviation(bytes: Buffer, start: number, end: number): string {
  const nul = bytes.indexOf(0, start);
  return bytes.toString("latin1", start, nul === -1 || nul > end ? end : nul);
}

function readDataBlock(bytes: Buffer, at: number, h: Header, timeSize: 4 | 8) {
  let cursor = at;
  const transitionTimes: number[] = [];
  for (let i = 0; i < h.timeCount; i++, cursor += timeSize) {
    transitionTimes.push(timeSize === 8 ? Number(bytes.readBigInt64BE(cursor)) : bytes.readInt32BE(cursor));
  }
  const transitionTypes: number[] = [];
  for (let i = 0; i < h.timeCount; i++, cursor += 1) transitionTypes.push(bytes[cursor]);
  const rawTypes: { offsetSeconds: number; isDst: boolean; abbreviationIndex: number }[] = [];
  for (let i = 0; i < h.typeCount; i++, cursor += 6) {
    rawTypes.push({
      offsetSeconds: bytes.readInt32BE(cursor),
      isDst: bytes[cursor + 4] === 1,
      abbreviationIndex: bytes[cursor + 5],
    });
  }
  const charsStart = cursor;
  const charsEnd = cursor + h.charCount;
  const types = rawTypes.map((t) => ({
    offsetSeconds: t.offsetSeconds,
    isDst: t.isDst,
    abbreviation: readAbbreviation(bytes, charsStart + t.abbreviationIndex, charsEnd),
  }));
  if (transitionTypes.some((index) => index >= types.length)) throw new TzifError("transition names a missing type");
  return { transitionTimes, transitionTypes, types };
}

export function parseTzif(bytes: Buffer): TzifData {
  const first = readHeader(bytes, 0);
  if (first.typeCount === 0) throw new TzifError("TZif file without local time types");
  const v1End = HEADER_BYTES + dataBlockLength(first, 4);
  if (first.version === 1) {
    return { version: 1, ...readDataBlock(bytes, HEADER_BYTES, first, 4), footer: "" };
  }
  const second = readHeader(bytes, v1End);
  const blockStart = v1End + HEADER_BYTES;
  const block = readDataBlock(bytes, blockStart, second, 8);
  const footerStart = blockStart + dataBlockLength(second, 8);
  let footer = "";
  if (bytes[footerStart] === 0x0a) {
    const footerEnd = bytes.indexOf(0x0a, footerStart + 1);
    if (footerEnd === -1) throw new TzifError("unterminated TZ string footer");
    footer = bytes.toString("latin1", footerStart + 1, footerEnd);
  }
  return { version: second.version, ...block, footer };
}
