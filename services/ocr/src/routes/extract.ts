import type { Static } from "typebox";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { acceptMultipart, ApiError, errors, ok, successSchema, ErrorSchema, type MultipartForm } from "@apiplat/service-kit";
import { ResponseTooLargeError, type OutboundClient } from "@apiplat/outbound-guard";
import { InputLimitError, InvalidOptionError, OcrBusyError, OcrTimeoutError, UnreadableInputError, UnsupportedFormatError } from "../domain/errors.js";
import type { Extractor, ExtractionRequest, RecognizingEngine } from "../engine/extract.js";
import { parseLanguageSpec } from "../domain/languages.js";
import { ExtractResultSchema, ROTATIONS, StructuredResultSchema, SUPPORTED_PSM, extractBodySchema, type ExtractBody } from "../schemas.js";
import type { OcrSettings } from "../settings.js";

export interface ExtractRoutesOptions {
  settings: OcrSettings;
  extractor: Extractor<RecognizingEngine>;
  outbound: OutboundClient;
  /** The languages whose data is installed (read from the tessdata folder). */
  installedLanguages: () => Promise<ReadonlySet<string>>;
  /** Whether the orientation detector's data (osd.traineddata) is installed. */
  orientationDataInstalled: () => Promise<boolean>;
}

const routeErrors = {
  400: ErrorSchema,
  401: ErrorSchema,
  403: ErrorSchema,
  413: ErrorSchema,
  415: ErrorSchema,
  422: ErrorSchema,
  429: ErrorSchema,
  502: ErrorSchema,
  503: ErrorSchema,
  504: ErrorSchema,
};

/** POST /extract and POST /extract/structured: the same input, text only or text with layout and tables. */
export const extractRoutes: FastifyPluginAsyncTypebox<ExtractRoutesOptions> = async (app, options) => {
  const { settings, extractor } = options;
  // Only JSON and multipart bodies carry an input; anything else is 415, not a confusing schema error.
  app.removeContentTypeParser("text/plain");
  acceptMultipart(
    app,
    { maxFiles: 1, maxFileBytes: settings.maxImageBytes, maxTotalBytes: settings.maxImageBytes, maxFields: 10, maxFieldBytes: 4096 },
    {
      tooLarge: () => ({ field: "file", issue: `must be at most ${settings.maxImageBytes} bytes` }),
      tooManyFiles: { field: "file", issue: "must be a single file" },
    },
    formToBody,
  );

  const bodySchema = extractBodySchema(settings.maxImageBytes);
  const description =
    "An image (PNG, JPEG, TIFF, WebP, GIF, BMP) or PDF by `url`, base64 `image`, or multipart upload in field `file`. " +
    "Each page's orientation is detected and turned upright unless `rotate` is given or `auto_rotate` is false.";

  const handle = async (body: ExtractBody, structured: boolean) => {
    const request = await toExtractionRequest(body, structured, options);
    try {
      return await extractor.extract(request);
    } catch (error) {
      throw toApiError(error, settings);
    }
  };

  app.post(
    "/extract",
    {
      schema: {
        summary: "Extract the text of an image or PDF",
        description,
        consumes: ["application/json", "multipart/form-data"],
        body: bodySchema,
        response: { 200: successSchema(ExtractResultSchema), ...routeErrors },
      },
    },
    async (request) => ok(await handle(request.body, false)),
  );

  app.post(
    "/extract/structured",
    {
      schema: {
        summary: "Extract text with blocks, lines, words, bounding boxes and tables",
        description,
        consumes: ["application/json", "multipart/form-data"],
        body: bodySchema,
        response: { 200: successSchema(StructuredResultSchema), ...routeErrors },
      },
    },
    async (request) => ok((await handle(request.body, true)) as Static<typeof StructuredResultSchema>),
  );
};

/** Form fields arrive as text: the numeric and boolean options become what the body schema expects; files keep their field name. */
function formToBody(form: MultipartForm): Record<string, unknown> {
  const body: Record<string, unknown> = { ...form.fields };
  for (const field of ["psm", "dpi", "rotate"]) {
    if (typeof body[field] === "string" && /^-?\d+$/.test(body[field] as string)) body[field] = Number(body[field]);
  }
  for (const field of ["deskew", "auto_rotate"]) {
    if (body[field] === "true" || body[field] === "false") body[field] = body[field] === "true";
  }
  for (const file of form.files) body[file.field] = file.data;
  return body;
}

async function toExtractionRequest(
  body: ExtractBody,
  structured: boolean,
  { settings, outbound, installedLanguages, orientationDataInstalled }: ExtractRoutesOptions,
): Promise<ExtractionRequest> {
  const sources = (["url", "image", "file"] as const).filter((key) => body[key] !== undefined);
  const oneSource = "give exactly one of url, image (base64) or an uploaded file";
  if (sources.length === 0) throw errors.validation("url", `is required: ${oneSource}`);
  if (sources.length > 1) throw errors.validation(sources[1], `must not be given with ${sources[0]}: ${oneSource}`);
  const language = body.language ?? settings.defaultLanguage;
  const languages = parseLanguageSpec(language, await installedLanguages());
  if (!languages.ok) throw errors.validation("language", languages.issue);
  const psm = body.psm ?? 3;
  if (!(SUPPORTED_PSM as readonly number[]).includes(psm)) throw errors.validation("psm", `must be one of: ${SUPPORTED_PSM.join(", ")}`);
  const rotate = body.rotate ?? 0;
  if (!(ROTATIONS as readonly number[]).includes(rotate)) throw errors.validation("rotate", `must be one of: ${ROTATIONS.join(", ")}`);
  // A caller who states the rotation knows the page's orientation: detection then runs only when also asked for.
  const autoRotate = body.auto_rotate ?? body.rotate === undefined;
  if (autoRotate && !(await orientationDataInstalled())) {
    throw new ApiError(
      503,
      "UNAVAILABLE",
      "Orientation detection is not installed on this server (Tesseract's osd data, Debian package tesseract-ocr-osd); " +
        "send auto_rotate: false, or rotate, to read pages as given.",
    );
  }
  return {
    bytes: await inputBytes(body, settings, outbound),
    language: languages.codes.join("+"),
    psm,
    pages: body.pages,
    dpi: body.dpi ?? 300,
    rotate,
    autoRotate,
    deskew: body.deskew ?? true,
    structured,
  };
}

async function inputBytes(body: ExtractBody, settings: OcrSettings, outbound: OutboundClient): Promise<Buffer> {
  if (body.file !== undefined) {
    if (!Buffer.isBuffer(body.file)) throw errors.validation("file", "must be an uploaded file (multipart/form-data)");
    if (body.file.length === 0) throw errors.validation("file", "must not be empty");
    return body.file;
  }
  if (body.image !== undefined) return decodeBase64Image(body.image, settings.maxImageBytes);
  return fetchImage(body.url!, settings, outbound);
}

function decodeBase64Image(text: string, maxBytes: number): Buffer {
  const payload = text.startsWith("data:") ? text.slice(text.indexOf(",") + 1) : text;
  // Trailing whitespace is trimmed first: a pattern ending in `\s*` after `[...\r\n]*` backtracks quadratically.
  if (!/^[A-Za-z0-9+/_\-\r\n]*={0,2}$/.test(payload.trimEnd())) throw errors.validation("image", "must be base64-encoded");
  const bytes = Buffer.from(payload, "base64");
  if (bytes.length === 0) throw errors.validation("image", "must not be empty");
  if (bytes.length > maxBytes) throw errors.payloadTooLarge("image", `must decode to at most ${maxBytes} bytes (got ${bytes.length})`);
  return bytes;
}

async function fetchImage(url: string, settings: OcrSettings, outbound: OutboundClient): Promise<Buffer> {
  let response;
  try {
    response = await outbound.fetch(url, { timeoutMs: settings.fetchTimeoutMs, maxBytes: settings.maxImageBytes, maxRedirects: 5 });
  } catch (error) {
    // The guard reports an oversized download as an upstream failure; for us it is the input size limit.
    if (error instanceof ResponseTooLargeError) {
      throw errors.payloadTooLarge("url", `must point to a file of at most ${settings.maxImageBytes} bytes`);
    }
    throw error;
  }
  if (response.status < 200 || response.status > 299) {
    throw errors.upstream(`Fetching the url returned HTTP ${response.status}.`);
  }
  if (response.body.length === 0) throw errors.upstream("The url returned an empty body.");
  return response.body;
}

function toApiError(error: unknown, settings: OcrSettings): unknown {
  if (error instanceof InputLimitError) return errors.payloadTooLarge(error.field, error.issue);
  if (error instanceof InvalidOptionError) return errors.validation(error.field, error.issue);
  if (error instanceof UnsupportedFormatError) return new ApiError(415, "UNSUPPORTED_MEDIA_TYPE", `Unsupported input: ${error.message}.`);
  if (error instanceof UnreadableInputError) return errors.unprocessable(`The input could not be read: ${error.message}.`);
  if (error instanceof OcrTimeoutError) {
    return errors.unprocessable(`${error.message}; send fewer pages (pages), a lower dpi or a smaller image.`, [
      { field: "timeout", issue: `processing must finish within ${settings.timeoutMs} ms` },
    ]);
  }
  if (error instanceof OcrBusyError) {
    return new ApiError(503, "UNAVAILABLE", `OCR is at capacity: ${error.message}; retry shortly.`, undefined, { "retry-after": "5" });
  }
  // Anything else is ours (a failed worker, missing data): a 500 in the envelope, the cause in the log.
  return error instanceof Error ? error : new Error(String(error));
}
