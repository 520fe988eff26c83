import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A span as the OTLP/HTTP JSON export carries it, its attributes flattened to plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** 1 internal, 2 server, 3 client (OTLP's SpanKind). */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  statusCode: number;
  /** The exporting process's service.name. */
  service: string;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: OtlpAttribute[];
        status?: { code?: number };
      }[];
    }[];
  }[];
}

function plain(value: OtlpValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  return value.boolValue ?? "";
}

function attributesOf(list: OtlpAttribute[] = []): Record<string, string | number | boolean> {
  return Object.fromEntries(list.map((attribute) => [attribute.key, plain(attribute.value)]));
}

/** What an OTLP collector on loopback would receive: POST /v1/traces in OTLP/HTTP JSON, decoded. */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly exports: { path: string; headers: IncomingHttpHeaders }[] = [];
  private readonly server: Server;

  constructor() {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        this.exports.push({ path: request.url ?? "", headers: request.headers });
        if (request.method !== "POST" || request.url !== "/v1/traces" || request.headers["content-type"] !== "application/json") {
          response.writeHead(415).end();
          return;
        }
        this.record(JSON.parse(Buffer.concat(chunks).toString("utf8")) as OtlpExport);
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
  }

  private record(body: OtlpExport): void {
    for (const resourceSpans of body.resourceSpans ?? []) {
      const service = String(attributesOf(resourceSpans.resource?.attributes)["service.name"] ?? "");
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? "",
            name: span.name,
            kind: span.kind,
            attributes: attributesOf(span.attributes),
            statusCode: span.status?.code ?? 0,
            service,
          });
        }
      }
    }
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Waits until `done` holds for the spans received (checked every 50 ms), or fails after `timeoutMs`. */
  async until(done: (spans: ReceivedSpan[]) => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done(this.spans)) {
      if (Date.now() > deadline)
        throw new Error(`the expected spans did not arrive within ${timeoutMs} ms; received: ${JSON.stringify(this.spans.map((s) => s.name))}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
