import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { acceptMultipart, errors } from "@apiplat/service-kit";
import { LIMITS } from "../domain/limits.js";
import { assertWithinPageLimit, pageLimitFor } from "../domain/page-limit.js";
import { mergePdfs } from "../domain/pdf-document.js";
import { resolveFilename } from "../domain/page-setup.js";
import { MergeBody, ResponseQuery, pdfAnswer, type Merge } from "../schemas.js";
import { toApiError } from "./errors.js";
import { sendPdf } from "./pdf-reply.js";

/** Base64 of the largest accepted total, plus room for the JSON around it. */
const MERGE_BODY_LIMIT = Math.ceil((LIMITS.mergeTotalBytesMax * 4) / 3) + 1024 * 1024;
const TOTAL_ISSUE = `must total at most ${LIMITS.mergeTotalBytesMax} bytes of PDF`;

/** POST /merge: PDFs concatenated in order, as JSON (base64) or multipart uploads. */
export const mergeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Uploads: one file part per PDF, in order, and an optional filename field; files travel as base64 like the JSON form.
  acceptMultipart(
    app,
    {
      maxFiles: LIMITS.mergeFilesMax,
      maxFileBytes: LIMITS.mergeTotalBytesMax,
      maxTotalBytes: LIMITS.mergeTotalBytesMax,
      maxFields: 10,
      maxFieldBytes: 4096,
    },
    { tooLarge: () => ({ field: "files", issue: TOTAL_ISSUE }), tooManyFiles: { field: "files", issue: `must have at most ${LIMITS.mergeFilesMax} items` } },
    (form): Partial<Merge> => ({
      files: form.files.map((file) => file.data.toString("base64")),
      ...(form.fields.filename !== undefined ? { filename: form.fields.filename } : {}),
    }),
  );

  app.post(
    "/merge",
    {
      bodyLimit: MERGE_BODY_LIMIT,
      schema: {
        summary: "Concatenate PDFs in order",
        description:
          "JSON {files: [base64...]} or multipart/form-data with one file part per PDF (in order) and an optional filename field. " +
          "The page limit of the plan applies to the merged document.",
        body: MergeBody,
        querystring: ResponseQuery,
        response: { 200: pdfAnswer("The merged PDF") },
      },
    },
    async (request, reply) => {
      const started = performance.now();
      const inputs = decodeFiles(request.body.files);
      const plan = request.subscriber.plan;
      try {
        const merged = await mergePdfs(inputs);
        assertWithinPageLimit(merged.pageCount, plan);
        return sendPdf(
          reply,
          {
            pdf: merged.pdf,
            filename: resolveFilename(request.body.filename ?? "merged.pdf"),
            pageCount: merged.pageCount,
            pageLimit: pageLimitFor(plan),
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

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const DATA_URL_PREFIX = /^data:application\/pdf;base64,/i;

function decodeFiles(files: Merge["files"]): Buffer[] {
  let total = 0;
  return files.map((encoded, index) => {
    const text = encoded.replace(DATA_URL_PREFIX, "").replace(/\s+/g, "");
    if (text.length % 4 === 1 || !BASE64.test(text)) throw errors.validation(`files[${index}]`, "must be a base64-encoded PDF");
    const bytes = Buffer.from(text, "base64");
    total += bytes.byteLength;
    if (total > LIMITS.mergeTotalBytesMax) throw errors.payloadTooLarge("files", TOTAL_ISSUE);
    return bytes;
  });
}
