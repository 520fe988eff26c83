import { Type, type TSchema } from "typebox";

/** The success envelope around a route's data, for response schemas and OpenAPI. */
export function successSchema<T extends TSchema>(data: T) {
  return Type.Object({
    status: Type.Literal("success"),
    data,
    timestamp: Type.String({ format: "date-time" }),
  });
}

export const ErrorSchema = Type.Object({
  status: Type.Literal("error"),
  error: Type.Object({
    code: Type.String(),
    message: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), issue: Type.String() }))),
  }),
  request_id: Type.String(),
  timestamp: Type.String({ format: "date-time" }),
});

/**
 * A serializer compiler that leaves answers as JSON.stringify writes them, for a route module whose response schemas
 * were added to document answers it already gave (`app.setSerializerCompiler(serializeAsWritten)`): the schemas show
 * in /openapi.json and the conformance suite checks recorded answers against them, but no field is dropped or
 * coerced on the way out, as the schema-compiled serializer would do to anything the schema does not name.
 */
export const serializeAsWritten = () => (data: unknown) => JSON.stringify(data);
