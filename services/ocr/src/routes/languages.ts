import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ok, successSchema, ErrorSchema } from "@apiplat/service-kit";
import { describeLanguages, MAX_LANGUAGES_PER_REQUEST } from "../domain/languages.js";
import { LanguagesResultSchema } from "../schemas.js";
import type { OcrSettings } from "../settings.js";

export interface LanguageRoutesOptions {
  settings: OcrSettings;
  /** The languages whose data is installed (read from the tessdata folder). */
  installedLanguages: () => Promise<ReadonlySet<string>>;
}

export const languageRoutes: FastifyPluginAsyncTypebox<LanguageRoutesOptions> = async (app, { settings, installedLanguages }) => {
  app.get(
    "/languages",
    {
      schema: {
        summary: "Languages Tesseract has data for, and which of them this deployment has installed",
        response: { 200: successSchema(LanguagesResultSchema), 401: ErrorSchema, 403: ErrorSchema, 429: ErrorSchema },
      },
    },
    async () => {
      const installed = await installedLanguages();
      return ok({
        default_language: settings.defaultLanguage,
        installed_count: installed.size,
        max_languages_per_request: MAX_LANGUAGES_PER_REQUEST,
        languages: describeLanguages(installed),
      });
    },
  );
};
