import { createTestPlatform, type TestPlatform } from "@apiplat/testing";
import type { ServiceApp } from "@apiplat/service-kit";
import { buildApp } from "../../src/app.js";
import type { OcrSettings } from "../../src/settings.js";

export interface OcrTestContext {
  platform: TestPlatform;
  app: ServiceApp;
  headers: Record<string, string>;
  close(): Promise<void>;
}

/** A real app on real PostgreSQL and Redis, with a MEGA subscriber (its per-second limit stays out of the way). */
export async function startOcr(settings: Partial<OcrSettings> = {}, env: Record<string, string> = {}): Promise<OcrTestContext> {
  const platform = await createTestPlatform({ env });
  const app = await buildApp({ ...platform.deps, settings: { poolSize: 1, ...settings } });
  const { headers } = await platform.subscribe("ocr", "MEGA");
  return {
    platform,
    app,
    headers,
    async close() {
      await app.close();
      await platform.close();
    },
  };
}

/** A multipart/form-data body as a browser or curl would send it. */
export async function multipartBody(file: Buffer | null, fields: Record<string, string> = {}, filename = "scan.png"): Promise<{ payload: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append("file", new Blob([new Uint8Array(file)]), filename);
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get("content-type")! };
}
