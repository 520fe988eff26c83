import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ok, successSchema, ErrorSchema } from "@apiplat/service-kit";
import { describeLanguages, MAX_LANGUAGES_PER_REQUEST } from "../domain/languages.js";
import { listInstalledLanguages } from "../engine/installed-languages.js";
import { LanguagesResultSchema } from "../schemas.js";
import type { OcrSettings } from "../settings.js";

export const languageRoutes: FastifyPluginAsyncTypebox<{ settings: OcrSettings }> = async (app, { settings }) => {
  app.get("/languages", {
    schema: {
      summary: "Languages Tesseract has data for, and which of them this deployment has installed",
      response: { 200: successSchema(LanguagesResultSchema), 401: ErrorSchema, 403: ErrorSchema, 429: ErrorSchema },
    },
  }, async () => {
    const installed = await listInstalledLanguages(settings.langPath);
    return ok({
      default_language: settings.defaultLanguage,
      installed_count: installed.size,
      max_languages_per_request: MAX_LANGUAGES_PER_REQUEST,
      languages: describeLanguages(installed),
    });
  });
};
