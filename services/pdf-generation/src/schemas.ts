import { Type, type Static } from "typebox";
import { successSchema } from "@apiplat/service-kit";
import { DEFAULTS, LIMITS } from "./domain/limits.js";

const LENGTH_DESCRIPTION = "a CSS length: a number followed by mm, cm, in, pt or px (a bare number is px), at most 100mm";
const CssLength = Type.String({ minLength: 1, maxLength: 20, pattern: "^\\s*\\d+(\\.\\d+)?(mm|cm|in|pt|px)?\\s*$", description: LENGTH_DESCRIPTION });

/** The options every render endpoint takes. */
const renderOptions = {
  page_size: Type.Optional(Type.Union([Type.Literal("A4"), Type.Literal("Letter"), Type.Literal("Legal")], { default: DEFAULTS.pageSize })),
  orientation: Type.Optional(Type.Union([Type.Literal("portrait"), Type.Literal("landscape")], { default: DEFAULTS.orientation })),
  margin: Type.Optional(
    Type.Union(
      [
        CssLength,
        Type.Object(
          { top: Type.Optional(CssLength), right: Type.Optional(CssLength), bottom: Type.Optional(CssLength), left: Type.Optional(CssLength) },
          { additionalProperties: false },
        ),
      ],
      { description: `one length for every side, or {top, right, bottom, left}; default ${DEFAULTS.margin} on every side` },
    ),
  ),
  header_html: Type.Optional(
    Type.String({
      maxLength: LIMITS.headerFooterMaxChars,
      description: "HTML drawn at the top of every page; {{page}}, {{pages}}, {{title}}, {{date}} and {{url}} are replaced",
    }),
  ),
  footer_html: Type.Optional(
    Type.String({ maxLength: LIMITS.headerFooterMaxChars, description: "HTML drawn at the bottom of every page; same placeholders as header_html" }),
  ),
  watermark_text: Type.Optional(
    Type.String({ minLength: 1, maxLength: LIMITS.watermarkMaxChars, description: "text drawn diagonally across the middle of every page" }),
  ),
  watermark_opacity: Type.Optional(
    Type.Number({ minimum: LIMITS.watermarkOpacityMin, maximum: LIMITS.watermarkOpacityMax, default: DEFAULTS.watermarkOpacity }),
  ),
  css: Type.Optional(Type.String({ maxLength: LIMITS.cssMaxChars, description: "an extra stylesheet applied after the document's own" })),
  print_background: Type.Optional(Type.Boolean({ default: DEFAULTS.printBackground })),
  scale: Type.Optional(Type.Number({ minimum: LIMITS.scaleMin, maximum: LIMITS.scaleMax, default: DEFAULTS.scale })),
  pdf_ua: Type.Optional(
    Type.Boolean({ default: false, description: "tagged PDF with language, title, outline and DisplayDocTitle; refused if the result is not tagged" }),
  ),
  title: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: LIMITS.titleMaxChars,
      description: "document title; default: the document's <title>, else the first heading (Markdown), else the file name",
    }),
  ),
  lang: Type.Optional(
    Type.String({
      minLength: 2,
      maxLength: LIMITS.langMaxChars,
      pattern: "^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$",
      description: "BCP 47 language used when the document has no <html lang>",
    }),
  ),
  filename: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: LIMITS.filenameMaxChars,
      pattern: '^[^\\\\/"\\u0000-\\u001f\\u007f]+$',
      description: `file name in Content-Disposition; .pdf is appended when missing; default ${DEFAULTS.filename}`,
    }),
  ),
  emulate_media: Type.Optional(Type.Union([Type.Literal("print"), Type.Literal("screen")], { default: "print" })),
  prefer_css_page_size: Type.Optional(Type.Boolean({ default: false, description: "let a CSS @page size rule win over page_size" })),
  timeout_ms: Type.Optional(Type.Integer({ minimum: LIMITS.timeoutMsMin, maximum: LIMITS.timeoutMsMax, default: DEFAULTS.timeoutMs })),
};

const AllowedOrigins = Type.Array(Type.String({ minLength: 1, maxLength: 300, pattern: "^https?://[^/?#\\s]+/?$" }), {
  maxItems: LIMITS.allowedOriginsMax,
  description: "origins (scheme://host[:port]) the document may load images, fonts and stylesheets from; every other network request is refused",
});

export const FromHtmlBody = Type.Object(
  {
    html: Type.String({ minLength: 1, maxLength: LIMITS.htmlMaxChars }),
    javascript: Type.Optional(Type.Boolean({ default: false, description: "run the document's scripts" })),
    allowed_origins: Type.Optional(AllowedOrigins),
    ...renderOptions,
  },
  { additionalProperties: false },
);

export const FromMarkdownBody = Type.Object(
  {
    markdown: Type.String({ minLength: 1, maxLength: LIMITS.markdownMaxChars }),
    allowed_origins: Type.Optional(AllowedOrigins),
    ...renderOptions,
  },
  { additionalProperties: false },
);

export const FromUrlBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: LIMITS.urlMaxChars }),
    javascript: Type.Optional(Type.Boolean({ default: true, description: "run the page's scripts (pages rendered by scripts need it)" })),
    wait_until: Type.Optional(
      Type.Union([Type.Literal("load"), Type.Literal("domcontentloaded"), Type.Literal("networkidle0"), Type.Literal("networkidle2")], {
        default: DEFAULTS.waitUntil,
      }),
    ),
    wait_for: Type.Optional(
      Type.String({ minLength: 1, maxLength: LIMITS.waitForMaxChars, description: "CSS selector that must be present before rendering" }),
    ),
    delay_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: LIMITS.delayMsMax, default: 0, description: "extra wait after loading (and after wait_for)" })),
    ...renderOptions,
  },
  { additionalProperties: false },
);

export const MergeBody = Type.Object(
  {
    files: Type.Array(Type.String({ minLength: 1, description: "a PDF, base64-encoded" }), { minItems: LIMITS.mergeFilesMin, maxItems: LIMITS.mergeFilesMax }),
    filename: renderOptions.filename,
  },
  { additionalProperties: false },
);

export const ResponseQuery = Type.Object(
  {
    response: Type.Optional(
      Type.Union([Type.Literal("pdf"), Type.Literal("json")], { default: "pdf", description: "pdf: the bytes; json: base64 plus metadata" }),
    ),
  },
  { additionalProperties: false },
);

const BlockedRequestSchema = Type.Object({ url: Type.String(), reason: Type.String() });

export const RenderResultSchema = Type.Object({
  filename: Type.String(),
  content_type: Type.Literal("application/pdf"),
  size_bytes: Type.Integer(),
  page_count: Type.Integer(),
  page_limit: Type.Integer(),
  render_time_ms: Type.Integer(),
  tagged: Type.Boolean(),
  title: Type.Optional(Type.String()),
  lang: Type.Optional(Type.String()),
  blocked_requests: Type.Array(BlockedRequestSchema),
  content_base64: Type.String(),
});

const RenderOptionsOnly = Type.Object(renderOptions);
export type RenderOptionsBody = Static<typeof RenderOptionsOnly>;
export type Merge = Static<typeof MergeBody>;
export type ResponseFormat = Static<typeof ResponseQuery>;

/**
 * The 200 answer of every endpoint that makes a PDF: the bytes (application/pdf) by default, the envelope with the
 * PDF in base64 (application/json) with ?response=json. Declared per content type so /openapi.json says both.
 */
export function pdfAnswer(description: string) {
  return {
    description,
    content: {
      "application/pdf": { schema: Type.String({ format: "binary", description: "The PDF document" }) },
      "application/json": { schema: successSchema(RenderResultSchema) },
    },
  };
}
