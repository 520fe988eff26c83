import { randomInt, randomUUID } from "node:crypto";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { errors, ok, successSchema } from "@apiplat/service-kit";
import { convertCase } from "../domain/case.js";
import { countText } from "../domain/count.js";
import { hexDigest } from "../domain/hash.js";
import { exceedsTextLimit, TEXT_LIMIT_ISSUE } from "../domain/limits.js";
import { loremParagraphs } from "../domain/lorem.js";
import { generatePassword } from "../domain/password.js";
import { toSlug } from "../domain/slug.js";
import * as S from "../schemas.js";

function boundedText(text: string): string {
  if (exceedsTextLimit(text)) throw errors.payloadTooLarge("text", TEXT_LIMIT_ISSUE);
  return text;
}

export const textRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    "/hash",
    { schema: { summary: "Hex digest (md5, sha1, sha256, sha512) of a text's UTF-8 bytes", body: S.HashBody, response: { 200: successSchema(S.HashData) } } },
    async (request) => {
      const algorithm = request.body.algorithm ?? "sha256";
      return ok({ algorithm, hash: hexDigest(boundedText(request.body.text), algorithm), encoding: "hex" as const });
    },
  );

  app.get(
    "/uuid",
    { schema: { summary: "Random version 4 UUIDs", querystring: S.UuidQuery, response: { 200: successSchema(S.UuidData) } } },
    async (request) => {
      const uuids = Array.from({ length: request.query.count }, () => randomUUID());
      return ok({ version: 4 as const, count: uuids.length, uuids });
    },
  );

  app.post(
    "/case",
    { schema: { summary: "A text in another letter case (camel, snake, kebab, title...)", body: S.CaseBody, response: { 200: successSchema(S.CaseData) } } },
    async (request) => {
      const { text, type } = request.body;
      return ok({ type, result: convertCase(boundedText(text), type) });
    },
  );

  app.post("/slug", { schema: { summary: "A URL slug of a text", body: S.SlugBody, response: { 200: successSchema(S.SlugData) } } }, async (request) => {
    const slug = toSlug(boundedText(request.body.text), request.body.max_length, request.body.separator);
    return ok({ slug, length: slug.length });
  });

  app.post(
    "/count",
    {
      schema: {
        summary: "Characters, words, sentences, paragraphs and reading time of a text",
        body: S.CountBody,
        response: { 200: successSchema(S.CountData) },
      },
    },
    async (request) => {
      return ok(countText(boundedText(request.body.text), request.body.words_per_minute));
    },
  );

  app.get(
    "/lorem",
    { schema: { summary: "Lorem ipsum paragraphs", querystring: S.LoremQuery, response: { 200: successSchema(S.LoremData) } } },
    async (request) => {
      const paragraphs = loremParagraphs(request.query.paragraphs, request.query.start_with_lorem, randomInt);
      const text = paragraphs.join("\n\n");
      return ok({ paragraphs, text, words: text.split(/\s+/).length });
    },
  );

  app.get(
    "/password",
    { schema: { summary: "A random password from the chosen character sets", querystring: S.PasswordQuery, response: { 200: successSchema(S.PasswordData) } } },
    async (request) => {
      const q = request.query;
      return ok(
        generatePassword({ length: q.length, symbols: q.symbols, digits: q.digits, uppercase: q.uppercase, excludeAmbiguous: q.exclude_ambiguous }, randomInt),
      );
    },
  );
};
