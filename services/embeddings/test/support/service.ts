import { startService, type StartedService, type TestSubscriber } from "@apiplat/testing";
import type { EmbeddingsSettings } from "../../src/settings.js";
import service from "../../src/service.js";

export interface Harness {
  started: StartedService;
  caller: TestSubscriber;
  post(url: string, payload: unknown, headers?: Record<string, string>): ReturnType<StartedService["app"]["inject"]>;
}

/** The service with USE-lite loaded, and a PRO subscriber. */
export async function startEmbeddings(settings: Partial<EmbeddingsSettings> = {}): Promise<Harness> {
  const started = await startService(service, { settings });
  const caller = await started.subscribe("PRO");
  return {
    started,
    caller,
    post: (url, payload, headers = caller.headers) =>
      started.app.inject({ method: "POST", url, headers, ...(typeof payload === "string" ? { body: payload, headers: { ...headers, "content-type": "application/json" } } : { payload: payload as object }) }),
  };
}

export const norm = (vector: number[]) => Math.hypot(...vector);
