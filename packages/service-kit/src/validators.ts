import { Ajv, type Options } from "ajv";
import addFormats from "ajv-formats";
import type { FastifySchemaCompiler } from "fastify";

// verbose: an error carries its schema, whose errorMessage or description turns a pattern into words.
const shared: Options = { useDefaults: true, removeAdditional: true, allErrors: false, strict: false, verbose: true };

function ajvWith(options: Options): Ajv {
  const ajv = new Ajv({ ...shared, ...options });
  (addFormats as unknown as (ajv: Ajv) => void)(ajv);
  return ajv;
}

// Query strings, path parameters and headers arrive as text, so "10" may become 10 there; a JSON body
// says what it means, so {"count": "10"} is refused rather than guessed at.
const textParts = ajvWith({ coerceTypes: "array" });
const jsonBody = ajvWith({ coerceTypes: false });

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === "body" ? jsonBody : textParts).compile(schema as object);
