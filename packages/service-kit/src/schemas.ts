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
