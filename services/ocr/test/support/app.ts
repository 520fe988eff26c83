import { client, startService, type StartedService } from "@apiplat/testing";
import { serviceUnderTest } from "@apiplat/testing/service-under-test";
import service from "../../src/service.js";

export interface OcrTestContext extends StartedService {
  headers: Record<string, string>;
}

/** One worker: tests share two cores with everything else. */
export const TEST_SETTINGS = { poolSize: 1 };

/** The started service with a MEGA subscriber's headers (its per-second limit stays out of the way). */
export async function withMegaKey(started: StartedService): Promise<OcrTestContext> {
  const { headers } = await started.subscribe("MEGA");
  return Object.assign(started, { headers });
}

/**
 * The service for a file's tests (on TEST_SETTINGS and `env`), its caller on MEGA like withMegaKey's, and a typed client
 * asking as that caller.
 */
export function ocrUnderTest(env: Record<string, string> = {}) {
  const ocr = serviceUnderTest(() => startService(service, { env, settings: TEST_SETTINGS }), "MEGA");
  return Object.assign(ocr, { api: () => client(ocr.started, ocr.caller.headers) });
}

/** A multipart/form-data body as a browser or curl would send it. */
export async function multipartBody(
  file: Buffer | null,
  fields: Record<string, string> = {},
  filename = "scan.png",
): Promise<{ payload: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append("file", new Blob([new Uint8Array(file)]), filename);
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get("content-type")! };
}
