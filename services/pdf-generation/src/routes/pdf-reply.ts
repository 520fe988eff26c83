import type { FastifyReply } from "fastify";
import { ok } from "@apiplat/service-kit";
import type { BlockedRequest } from "../browser/network-policy.js";

interface PdfOutcome {
  pdf: Uint8Array;
  filename: string;
  pageCount: number;
  pageLimit: number;
  renderTimeMs: number;
  tagged: boolean;
  title?: string;
  lang?: string;
  blockedRequests: BlockedRequest[];
}

/** attachment; filename="r?sum?.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf (RFC 6266), safe for any name. */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** The PDF bytes with their facts in headers, or (?response=json) the envelope with base64 and metadata. */
export function sendPdf(reply: FastifyReply, outcome: PdfOutcome, format: "pdf" | "json" | undefined) {
  reply.header("x-page-count", String(outcome.pageCount));
  reply.header("x-page-limit", String(outcome.pageLimit));
  reply.header("x-render-time-ms", String(outcome.renderTimeMs));
  reply.header("cache-control", "no-store");
  if (format === "json") {
    return ok({
      filename: outcome.filename,
      content_type: "application/pdf" as const,
      size_bytes: outcome.pdf.byteLength,
      page_count: outcome.pageCount,
      page_limit: outcome.pageLimit,
      render_time_ms: outcome.renderTimeMs,
      tagged: outcome.tagged,
      ...(outcome.title !== undefined ? { title: outcome.title } : {}),
      ...(outcome.lang !== undefined ? { lang: outcome.lang } : {}),
      blocked_requests: outcome.blockedRequests,
      content_base64: Buffer.from(outcome.pdf).toString("base64"),
    });
  }
  reply.header("content-disposition", contentDisposition(outcome.filename));
  return reply.type("application/pdf").send(Buffer.from(outcome.pdf.buffer, outcome.pdf.byteOffset, outcome.pdf.byteLength));
}
