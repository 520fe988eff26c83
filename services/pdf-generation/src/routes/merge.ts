import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { acceptMultipart, ApiError, errors } from "@apiplat/service-kit";
import { LIMITS, MERGE_BYTES_MAX, type Plan } from "../domain/limits.js";
import { mergeByteLimitFor, mergeBytesAdvice, mergePageLimitFor } from "../domain/page-limit.js";
import { resolveFilename } from "../domain/page-setup.js";
import type { MergePool } from "../merging/merge-pool.js";
import { MergeBody, ResponseQuery, pdfAnswer, type Merge } from "../schemas.js";
import { toApiError } from "./errors.js";
import { sendPdf } from "./pdf-reply.js";

export interface MergeRoutesOptions {
  merger: MergePool;
}

/** Base64 of `bytes` of PDF, plus room for the JSON (or multipart framing) around it. */
const bodyBytesFor = (bytes: number) => Math.ceil((bytes * 4) / 3) + 1024 * 1024;

/** POST /merge: PDFs concatenated in order, as JSON (base64) or multipart uploads, in a merge thread. */
export const mergeRoutes: FastifyPluginAsyncTypebox<MergeRoutesOptions> = async (app, { merger }) => {
  // Uploads: one file part per PDF, in order, and an optional filename field; files travel as base64 like the JSON form.
  // The plan's own byte bound is checked once the files are read; this is the largest any plan has.
  acceptMultipart(
    app,
    { maxFiles: LIMITS.mergeFilesMax, maxFileBytes: MERGE_BYTES_MAX, maxTotalBytes: MERGE_BYTES_MAX, maxFields: 10, maxFieldBytes: 4096 },
    {
      tooLarge: () => ({ field: "files", issue: `must total at most ${MERGE_BYTES_MAX} bytes of PDF` }),
      tooManyFiles: { field: "files", issue: `must have at most ${LIMITS.mergeFilesMax} items` },
    },
    (form): Partial<Merge> => ({
      files: form.files.map((file) => file.data.toString("base64")),
      ...(form.fields.filename !== undefined ? { filename: form.fields.filename } : {}),
    }),
  );

  app.post(
    "/merge",
    {
      bodyLimit: bodyBytesFor(MERGE_BYTES_MAX),
      // A body announced larger than the plan can merge is refused before it is read.
      preParsing: async (request) => {
        const announced = Number(request.headers["content-length"] ?? 0);
        if (announced > bodyBytesFor(mergeByteLimitFor(request.subscriber.plan))) throw tooManyBytes(request.subscriber.plan);
      },
      schema: {
        summary: "Concatenate PDFs in order",
        description:
          "JSON {files: [base64...]} or multipart/form-data with one file part per PDF (in order) and an optional filename field. " +
          "Merging has bounds of its own, larger than the render page limit: 1,000 pages and 25 MiB (BASIC), 1,000 pages and " +
          "50 MiB (PRO), 10,000 pages and 100 MiB (ULTRA, MEGA).",
        body: MergeBody,
        querystring: ResponseQuery,
        response: { 200: pdfAnswer("The merged PDF") },
      },
    },
    async (request, reply) => {
      const started = performance.now();
      const plan = request.subscriber.plan;
      const inputs = decodeFiles(request.body.files, plan);
      try {
        const merged = await merger.merge(inputs, plan);
        return sendPdf(
          reply,
          {
            pdf: merged.pdf,
            filename: resolveFilename(request.body.filename ?? "merged.pdf"),
            pageCount: merged.pageCount,
            pageLimit: mergePageLimitFor(plan),
            renderTimeMs: Math.round(performance.now() - started),
            // pdf-lib copies pages, not the inputs' structure trees: a merged document is never tagged.
            tagged: false,
            blockedRequests: [],
          },
          request.query.response,
        );
      } catch (error) {
        throw toApiError(error);
      }
    },
  );
};

function tooManyBytes(plan: Plan): ApiError {
  const { issue, message } = mergeBytesAdvice(plan);
  return new ApiError(413, "PAYLOAD_TOO_LARGE", message, [{ field: "files", issue }]);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const DATA_URL_PREFIX = /^data:application\/pdf;base64,/i;

function decodeFiles(files: Merge["files"], plan: Plan): Buffer[] {
  const limit = mergeByteLimitFor(plan);
  let total = 0;
  return files.map((encoded, index) => {
    const text = encoded.replace(DATA_URL_PREFIX, "").replace(/\s+/g, "");
    if (text.length % 4 === 1 || !BASE64.test(text)) throw errors.validation(`files[${index}]`, "must be a base64-encoded PDF");
    const bytes = Buffer.from(text, "base64");
    total += bytes.byteLength;
    if (total > limit) throw tooManyBytes(plan);
    return bytes;
  });
}
