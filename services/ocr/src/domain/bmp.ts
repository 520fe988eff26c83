/** A decoded bitmap: 8-bit RGBA, rows top to bottom. */
interface RgbaImage {
  width: number;
  height: number;
  data: Buffer;
}

export class BmpError extends Error {}

const BI_RGB = 0;
const BI_BITFIELDS = 3;
const BI_ALPHABITFIELDS = 6;

interface BmpHeader {
  pixelOffset: number;
  headerSize: number;
  width: number;
  height: number;
  topDown: boolean;
  bitsPerPixel: number;
  compression: number;
  paletteSize: number;
}

/** Width and height from the header alone, so limits can be checked before decoding. */
export function readBmpSize(bytes: Buffer): { width: number; height: number } {
  const header = readHeader(bytes);
  return { width: header.width, height: header.height };
}

function readHeader(bytes: Buffer): BmpHeader {
  if (bytes.length < 26 || bytes.toString("latin1", 0, 2) !== "BM") throw new BmpError("not a BMP file");
  const headerSize = bytes.readUInt32LE(14);
  if (headerSize === 12) {
    return {
      pixelOffset: bytes.readUInt32LE(10),
      headerSize,
      width: bytes.readUInt16LE(18),
      height: bytes.readUInt16LE(20),
      topDown: false,
      bitsPerPixel: bytes.readUInt16LE(24),
      compression: BI_RGB,
      paletteSize: 0,
    };
  }
  if (headerSize < 40 || bytes.length < 14 + headerSize) throw new BmpError("unsupported BMP header");
  const rawHeight = bytes.readInt32LE(22);
  return {
    pixelOffset: bytes.readUInt32LE(10),
    headerSize,
    width: bytes.readInt32LE(18),
    height: Math.abs(rawHeight),
    topDown: rawHeight < 0,
    bitsPerPixel: bytes.readUInt16LE(28),
    compression: bytes.readUInt32LE(30),
    paletteSize: bytes.readUInt32LE(46),
  };
}

/** Decodes uncompressed BMPs (1, 4, 8, 16, 24 and 32 bits per pixel, with or without bit fields). */
export function decodeBmp(bytes: Buffer): RgbaImage {
  const header = readHeader(bytes);
  const { width, height, bitsPerPixel, compression } = header;
  if (width <= 0 || height <= 0) throw new BmpError("BMP has no pixels");
  if (![BI_RGB, BI_BITFIELDS, BI_ALPHABITFIELDS].includes(compression)) {
    throw new BmpError("compressed (RLE, JPEG or PNG inside) BMP files are not supported");
  }
  if (![1, 4, 8, 16, 24, 32].includes(bitsPerPixel)) throw new BmpError(`${bitsPerPixel}-bit BMP files are not supported`);
  const rowBytes = Math.ceil((width * bitsPerPixel) / 32) * 4;
  if (header.pixelOffset + rowBytes * height > bytes.length) throw new BmpError("BMP pixel data is truncated");
  const readPixel = pixelReader(bytes, header);
  const out = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    const sourceRow = header.topDown ? y : height - 1 - y;
    const rowStart = header.pixelOffset + sourceRow * rowBytes;
    for (let x = 0; x < width; x++) readPixel(rowStart, x, out, (y * width + x) * 4);
  }
  return { width, height, data: out };
}

type PixelReader = (rowStart: number, x: number, out: Buffer, at: number) => void;

function pixelReader(bytes: Buffer, header: BmpHeader): PixelReader {
  const { bitsPerPixel } = header;
  if (bitsPerPixel <= 8) {
    const palette = readPalette(bytes, header);
    const perByte = 8 / bitsPerPixel;
    const mask = (1 << bitsPerPixel) - 1;
    return (rowStart, x, out, at) => {
      const byte = bytes[rowStart + Math.floor(x / perByte)];
      const shift = 8 - bitsPerPixel * ((x % perByte) + 1);
      const entry = palette[(byte >> shift) & mask] ?? [0, 0, 0];
      out[at] = entry[0];
      out[at + 1] = entry[1];
      out[at + 2] = entry[2];
      out[at + 3] = 255;
    };
  }
  if (bitsPerPixel === 24) {
    return (rowStart, x, out, at) => {
      const p = rowStart + x * 3;
      out[at] = bytes[p + 2];
      out[at + 1] = bytes[p + 1];
      out[at + 2] = bytes[p];
      out[at + 3] = 255;
    };
  }
  const masks = readMasks(bytes, header);
  const channels = masks.map(maskShape);
  const hasAlpha = masks[3] !== 0;
  return (rowStart, x, out, at) => {
    const value = bitsPerPixel === 16 ? bytes.readUInt16LE(rowStart + x * 2) : bytes.readUInt32LE(rowStart + x * 4);
    for (let c = 0; c < 3; c++) out[at + c] = scaleChannel(value, channels[c]);
    out[at + 3] = hasAlpha ? scaleChannel(value, channels[3]) : 255;
  };
}

function readPalette(bytes: Buffer, header: BmpHeader): Array<[number, number, number]> {
  const entrySize = header.headerSize === 12 ? 3 : 4;
  const count = header.paletteSize || 1 << header.bitsPerPixel;
  const start = 14 + header.headerSize;
  const palette: Array<[number, number, number]> = [];
  for (let i = 0; i < count && start + i * entrySize + 2 < bytes.length; i++) {
    const p = start + i * entrySize;
    palette.push([bytes[p + 2], bytes[p + 1], bytes[p]]);
  }
  return palette;
}

function readMasks(bytes: Buffer, header: BmpHeader): [number, number, number, number] {
  if (header.compression === BI_RGB) {
    return header.bitsPerPixel === 16 ? [0x7c00, 0x03e0, 0x001f, 0] : [0xff0000, 0x00ff00, 0x0000ff, 0];
  }
  // Bit fields sit in the info header (V4/V5) or right after a 40-byte header.
  const at = 54;
  const alpha = header.compression === BI_ALPHABITFIELDS || header.headerSize >= 56 ? bytes.readUInt32LE(at + 12) : 0;
  return [bytes.readUInt32LE(at), bytes.readUInt32LE(at + 4), bytes.readUInt32LE(at + 8), alpha];
}

interface MaskShape {
  shift: number;
  max: number;
  mask: number;
}

function maskShape(mask: number): MaskShape {
  if (mask === 0) return { shift: 0, max: 0, mask: 0 };
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  return { shift, max: mask >>> shift, mask };
}

function scaleChannel(value: number, shape: MaskShape): number {
  if (shape.max === 0) return 0;
  return Math.round((((value & shape.mask) >>> shape.shift) * 255) / shape.max);
}
