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

/** Pages of one rendered document (the spec: 100 on standard plans, 1,000 on ULTRA and higher). */
export const PAGE_LIMITS = { BASIC: 100, PRO: 100, ULTRA: 1_000, MEGA: 1_000 } as const;
export type Plan = keyof typeof PAGE_LIMITS;

const MiB = 1024 * 1024;

/**
 * /merge exists for documents longer than the render limit, so it has bounds of its own: ten times the plan's
 * render limit in pages, and the decoded bytes of all its input PDFs together.
 */
export const MERGE_PAGE_LIMITS: Record<Plan, number> = { BASIC: 1_000, PRO: 1_000, ULTRA: 10_000, MEGA: 10_000 };
export const MERGE_BYTE_LIMITS: Record<Plan, number> = { BASIC: 25 * MiB, PRO: 50 * MiB, ULTRA: 100 * MiB, MEGA: 100 * MiB };
/** The largest merge input of any plan: what the request body may hold at most. */
export const MERGE_BYTES_MAX = Math.max(...Object.values(MERGE_BYTE_LIMITS));
