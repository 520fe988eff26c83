import type { LightMyRequestResponse } from "fastify";
import { client, startService, type StartedService, type TestSubscriber, type TypedClient } from "@apiplat/testing";
import type { EmbeddingsSettings } from "../../src/settings.js";
import service from "../../src/service.js";

export interface Harness {
  started: StartedService;
  caller: TestSubscriber;
  /** The typed client with the subscriber's headers. */
  api: TypedClient;
  /** POSTs an object as JSON, or a string as the raw JSON body (to send what JSON.stringify cannot, e.g. lone surrogates). */
  post(url: string, payload: object | string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

/** The service with USE-lite loaded, and a PRO subscriber. */
export async function startEmbeddings(settings: Partial<EmbeddingsSettings> = {}): Promise<Harness> {
  const started = await startService(service, { settings });
  const caller = await started.subscribe("PRO");
  return {
    started,
    caller,
    api: client(started, caller.headers),
    post: (url, payload, headers = caller.headers) =>
      typeof payload === "string"
        ? started.app.inject({ method: "POST", url, headers: { ...headers, "content-type": "application/json" }, body: payload })
        : started.app.inject({ method: "POST", url, headers, payload }),
  };
}

export const norm = (vector: number[]) => Math.hypot(...vector);
