import type { IncomingMessage } from "node:http";
import { Busboy } from "@fastify/busboy";
import type { FastifyInstance } from "fastify";
import { errors } from "@apiplat/errors";

export interface UploadedFile {
  field: string;
  filename: string | undefined;
  data: Buffer;
}

export interface MultipartForm {
  /** Text fields by name; a repeated name keeps its last value. */
  fields: Record<string, string>;
  /** File parts in the order they arrived. */
  files: UploadedFile[];
}

export interface MultipartLimits {
  maxFiles: number;
  /** Per file. */
  maxFileBytes: number;
  /** All files together. */
  maxTotalBytes: number;
  maxFields: number;
  maxFieldBytes: number;
}

export interface MultipartMessages {
  /** The field and issue reported when a file or the files together are too large (413). */
  tooLarge: (file: UploadedFile["field"], limit: "file" | "total") => { field: string; issue: string };
  /** The field and issue reported past maxFiles (400). */
  tooManyFiles: { field: string; issue: string };
}

/**
 * Reads a multipart/form-data body into memory within the limits: a file or total over its bound is 413, too many
 * files or fields 400, a malformed form 400, each in the shared envelope. The rest of the body is drained, never
 * half-read.
 */
export function readMultipartForm(payload: IncomingMessage, limits: MultipartLimits, messages: MultipartMessages): Promise<MultipartForm> {
  return new Promise((resolve, reject) => {
    const form: MultipartForm = { fields: {}, files: [] };
    let total = 0;
    let failed = false;
    const fail = (error: Error): void => {
      if (failed) return;
      failed = true;
      payload.unpipe();
      payload.resume();
      reject(error);
    };
    let parser: InstanceType<typeof Busboy>;
    try {
      parser = new Busboy({
        headers: payload.headers as { "content-type": string },
        // One more than allowed of each, so that going past a limit is seen and refused rather than cut silently.
        limits: { files: limits.maxFiles + 1, fields: limits.maxFields + 1, fieldSize: limits.maxFieldBytes, fileSize: limits.maxFileBytes + 1 },
      });
    } catch {
      reject(errors.validation("body", "must be multipart/form-data with a boundary"));
      return;
    }
    parser.on("file", (field: string, stream: NodeJS.ReadableStream, filename: string | undefined) => {
      if (form.files.length >= limits.maxFiles) {
        stream.resume();
        return fail(errors.validation(messages.tooManyFiles.field, messages.tooManyFiles.issue));
      }
      const file: UploadedFile = { field, filename, data: Buffer.alloc(0) };
      form.files.push(file);
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on("data", (chunk: Buffer) => {
        size += chunk.byteLength;
        total += chunk.byteLength;
        const over = size > limits.maxFileBytes ? "file" : total > limits.maxTotalBytes ? "total" : null;
        if (over) {
          const { field: name, issue } = messages.tooLarge(field, over);
          return fail(errors.payloadTooLarge(name, issue));
        }
        chunks.push(chunk);
      });
      stream.on("end", () => {
        file.data = Buffer.concat(chunks);
      });
    });
    parser.on("field", (name: string, value: string) => {
      if (Object.keys(form.fields).length >= limits.maxFields && !(name in form.fields)) {
        return fail(errors.validation("body", `must have at most ${limits.maxFields} form fields`));
      }
      form.fields[name] = value;
    });
    parser.on("finish", () => {
      if (!failed) resolve(form);
    });
    parser.on("error", () => fail(errors.validation("body", "must be a well-formed multipart/form-data body")));
    payload.pipe(parser);
  });
}

/**
 * Accepts multipart/form-data on the app's routes, turned by `toBody` into the same body the JSON form has, so that
 * one schema checks both.
 */
export function acceptMultipart(app: FastifyInstance, limits: MultipartLimits, messages: MultipartMessages, toBody: (form: MultipartForm) => unknown): void {
  app.addContentTypeParser("multipart/form-data", (request, payload, done) => {
    readMultipartForm(payload, limits, messages).then(
      (form) => done(null, toBody(form)),
      (error: Error) => done(error),
    );
  });
}
