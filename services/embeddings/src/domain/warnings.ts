/** What the answer says about an input the model did not take as it is: cut past the limit, or not in its language. */
import { detectNonEnglish } from "./language.js";

export interface InputWarning {
  /** Position of the text among those the request sent (the query first for /similarity and /rerank). */
  index: number;
  field: string;
  code: "truncated" | "language_not_supported";
  /** language_not_supported: the language detected (ISO 639-3). */
  language?: string;
  message: string;
}

interface WarningContext {
  model: { id: string; maxTokens: number; languages: readonly string[] };
  /** The multilingual model to suggest, and whether it runs on this server. */
  multilingual: { id: string; installed: boolean } | null;
}

/** Warnings for each text, in input order: none for a text taken whole by a model of its language. */
export function inputWarnings(texts: readonly string[], fields: readonly string[], tokens: readonly number[], context: WarningContext): InputWarning[] {
  const warnings: InputWarning[] = [];
  const englishOnly = context.model.languages.length === 1 && context.model.languages[0] === "en";
  texts.forEach((text, index) => {
    const field = fields[index];
    if (tokens[index] > context.model.maxTokens) {
      warnings.push({
        index,
        field,
        code: "truncated",
        message: `${field} has ${tokens[index]} tokens; ${context.model.id} embeds the first ${context.model.maxTokens} and leaves the rest out.`,
      });
    }
    const language = englishOnly ? detectNonEnglish(text) : null;
    if (language) {
      const suggestion = context.multilingual
        ? ` Embed it with /embed/multilingual (${context.multilingual.id}${context.multilingual.installed ? "" : ", not installed on this server"}).`
        : "";
      warnings.push({
        index,
        field,
        code: "language_not_supported",
        language: language.code,
        message: `${field} looks like ${language.name}; ${context.model.id} reads English only, so its vector does not place it near texts of the same meaning.${suggestion}`,
      });
    }
  });
  return warnings;
}
