import { errors } from "@apiplat/errors";
import { detectLanguage, type Language } from "../domain/languages.js";
import { countTokens, TOKENS_PER_ENGLISH_WORD } from "../domain/text.js";
import type { PageReader } from "../engine/page-reader.js";
import type * as S from "../schemas.js";

export interface ResolvedInput {
  text: string;
  language: Language;
  detected: boolean;
  source: S.Source;
}

interface InputFields {
  text?: string;
  url?: string;
  language?: Language;
}

const HAS_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** The text to work on: the text, the page's main content, or both (text first); and its language. */
export async function resolveInput(body: InputFields, pages: PageReader): Promise<ResolvedInput> {
  const text = body.text !== undefined && HAS_LETTER_OR_DIGIT.test(body.text) ? body.text.trim() : undefined;
  if (body.text !== undefined && text === undefined && body.url === undefined) {
    throw errors.validation("text", "must contain words to summarize");
  }
  if (text === undefined && body.url === undefined) {
    throw errors.validation("text", "is required unless url is given: send the text, a page address, or both");
  }
  const page = body.url === undefined ? undefined : await pages.read(body.url);
  const combined = [text, page?.text].filter((part) => part !== undefined).join("\n\n");
  const kind = page === undefined ? "text" : text === undefined ? "url" : "text_and_url";
  return {
    text: combined,
    language: body.language ?? detectLanguage(combined),
    detected: body.language === undefined,
    source: { kind, title: page?.title ?? null, url: page?.url ?? null, content_type: page?.kind ?? null },
  };
}

/** 413 past the limit, naming the count, the limit, and where longer input goes. */
export function enforceTokenLimit(text: string, language: Language, limits: { tokenLimit: number; longMaxWords: number }): number {
  const limit = limits.tokenLimit;
  const tokens = countTokens(text, language);
  if (tokens > limit) {
    throw errors.payloadTooLarge(
      "text",
      `is ${tokens} tokens long and this endpoint takes at most ${limit} tokens (about ${Math.round(limit / TOKENS_PER_ENGLISH_WORD / 100) * 100} words of English prose); ` +
        `send it to POST /summarize/long, which takes up to ${limits.longMaxWords} words`,
    );
  }
  return tokens;
}
