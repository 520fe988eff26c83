import { Type, type Static } from "typebox";

export const SUPPORTED_PSM = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13] as const;
export const ROTATIONS = [0, 90, 180, 270] as const;
const DPI_BOUNDS = { minimum: 70, maximum: 600 } as const;
export const MAX_URL_LENGTH = 2048;

/** Length of the base64 text for `bytes` bytes, plus room for a data: URL prefix and line breaks. */
export function base64LengthFor(bytes: number): number {
  const base64 = Math.ceil(bytes / 3) * 4;
  return base64 + Math.ceil(base64 / 76) * 2 + 256;
}

const options = {
  language: Type.Optional(
    Type.String({
      minLength: 2,
      maxLength: 100,
      description: "Installed language codes joined by '+', e.g. 'eng' or 'eng+deu' (at most 5). Default 'eng'.",
    }),
  ),
  psm: Type.Optional(
    Type.Integer({
      minimum: 3,
      maximum: 13,
      description:
        "Tesseract page segmentation mode: 3 auto (default), 4 single column, 5 vertical block, 6 single block, 7 single line, 8 single word, 9 word in a circle, 10 single character, 11 sparse text, 13 raw line.",
    }),
  ),
  pages: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: "PDF or multi-page TIFF pages to read, e.g. '1-3,5'. Default: every page (at most 10).",
    }),
  ),
  dpi: Type.Optional(Type.Integer({ ...DPI_BOUNDS, description: "Resolution PDF pages are rendered at (70-600, default 300)." })),
  rotate: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 270,
      description:
        "Rotate the input clockwise by 0, 90, 180 or 270 degrees before reading; giving it turns orientation detection off unless auto_rotate is true.",
    }),
  ),
  deskew: Type.Optional(Type.Boolean({ description: "Measure and straighten skew up to 15 degrees (default true)." })),
  auto_rotate: Type.Optional(
    Type.Boolean({
      description: "Detect each page's orientation (Tesseract OSD) and turn it upright before reading (default true, false when rotate is given).",
    }),
  ),
};

export function extractBodySchema(maxImageBytes: number) {
  return Type.Object(
    {
      url: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_URL_LENGTH, description: "http(s) URL of the image or PDF." })),
      image: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: base64LengthFor(maxImageBytes),
          description: "The image or PDF, base64-encoded (a data: URL prefix is accepted).",
        }),
      ),
      file: Type.Optional(Type.Unsafe<unknown>({ description: "multipart/form-data only: the uploaded image or PDF." })),
      ...options,
    },
    { additionalProperties: false },
  );
}

export type ExtractBody = Static<ReturnType<typeof extractBodySchema>>;

const BoxSchema = Type.Object({
  left: Type.Integer(),
  top: Type.Integer(),
  width: Type.Integer(),
  height: Type.Integer(),
  normalized: Type.Object({ left: Type.Number(), top: Type.Number(), width: Type.Number(), height: Type.Number() }),
});

const WordSchema = Type.Object({ text: Type.String(), confidence: Type.Number(), box: BoxSchema });
const LineSchema = Type.Object({ text: Type.String(), confidence: Type.Number(), box: BoxSchema, words: Type.Array(WordSchema) });
const BlockSchema = Type.Object({ text: Type.String(), confidence: Type.Number(), box: BoxSchema, lines: Type.Array(LineSchema) });
const CellSchema = Type.Object({
  row_index: Type.Integer(),
  column_index: Type.Integer(),
  column_span: Type.Integer(),
  text: Type.String(),
  confidence: Type.Union([Type.Number(), Type.Null()]),
  box: BoxSchema,
});
const TableSchema = Type.Object({
  detection: Type.Union([Type.Literal("ruling_lines"), Type.Literal("alignment")]),
  row_count: Type.Integer(),
  column_count: Type.Integer(),
  box: BoxSchema,
  rows: Type.Array(Type.Object({ row_index: Type.Integer(), cells: Type.Array(CellSchema) })),
});

const OrientationSchema = Type.Union(
  [
    Type.Object({
      rotation_degrees: Type.Integer({ description: "clockwise turn applied after detection, on top of rotate" }),
      osd_confidence: Type.Union([Type.Number(), Type.Null()], {
        description: "Tesseract's orientation confidence; 7 and above is sure; null: too little text",
      }),
      decided_by: Type.Union([Type.Literal("osd"), Type.Literal("recognition"), Type.Literal("none")]),
    }),
    Type.Null(),
  ],
  { description: "what orientation detection found and did; null when it was off" },
);

const pageFields = {
  page_number: Type.Integer(),
  width: Type.Integer(),
  height: Type.Integer(),
  dpi: Type.Union([Type.Integer(), Type.Null()]),
  rotation_degrees: Type.Integer({ description: "total clockwise turn applied before reading: rotate plus the detected turn" }),
  orientation: OrientationSchema,
  skew_degrees: Type.Number(),
  text: Type.String(),
  confidence: Type.Number(),
  word_count: Type.Integer(),
};

const resultFields = {
  text: Type.String(),
  confidence: Type.Number(),
  language: Type.String(),
  psm: Type.Integer(),
  format: Type.String(),
  page_count: Type.Integer(),
  pages_processed: Type.Integer(),
  timing: Type.Object({
    total_ms: Type.Integer(),
    queue_ms: Type.Integer(),
    decode_ms: Type.Integer(),
    orientation_ms: Type.Integer(),
    recognize_ms: Type.Integer(),
  }),
};

export const ExtractResultSchema = Type.Object({ ...resultFields, pages: Type.Array(Type.Object(pageFields)) });
export const StructuredResultSchema = Type.Object({
  ...resultFields,
  pages: Type.Array(Type.Object({ ...pageFields, blocks: Type.Array(BlockSchema), tables: Type.Array(TableSchema) })),
});

export const LanguagesResultSchema = Type.Object({
  default_language: Type.String(),
  installed_count: Type.Integer(),
  max_languages_per_request: Type.Integer(),
  languages: Type.Array(Type.Object({ code: Type.String(), name: Type.String(), installed: Type.Boolean(), debian_package: Type.String() })),
});
