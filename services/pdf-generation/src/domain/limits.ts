/** Every documented bound of the service, in one place so the schemas, the README and the tests agree. */
export const LIMITS = {
  htmlMaxChars: 5_000_000,
  markdownMaxChars: 2_000_000,
  cssMaxChars: 500_000,
  headerFooterMaxChars: 20_000,
  watermarkMaxChars: 100,
  watermarkOpacityMin: 0.05,
  watermarkOpacityMax: 1,
  titleMaxChars: 300,
  langMaxChars: 35,
  filenameMaxChars: 200,
  urlMaxChars: 2048,
  waitForMaxChars: 500,
  delayMsMax: 10_000,
  timeoutMsMin: 1_000,
  timeoutMsMax: 60_000,
  scaleMin: 0.1,
  scaleMax: 2,
  marginMaxMm: 100,
  allowedOriginsMax: 20,
  mergeFilesMin: 2,
  mergeFilesMax: 50,
  /** Decoded bytes of all PDFs sent to /merge together. */
  mergeTotalBytesMax: 25 * 1024 * 1024,
} as const;

export const DEFAULTS = {
  pageSize: "A4",
  orientation: "portrait",
  margin: "15mm",
  watermarkOpacity: 0.15,
  lang: "en",
  filename: "document.pdf",
  timeoutMs: 30_000,
  scale: 1,
  printBackground: true,
  waitUntil: "networkidle2",
  headerFooterFontSizePx: 9,
} as const;

export const PAGE_LIMITS = { BASIC: 100, PRO: 100, ULTRA: 1_000, MEGA: 1_000 } as const;
export type Plan = keyof typeof PAGE_LIMITS;
