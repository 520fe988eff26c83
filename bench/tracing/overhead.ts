/**
 * The platform's cost on POST /hash of a 1 KB text with tracing off and on, against bare Fastify, the three paired in
 * one run (bench/lib/compare-many.ts); with BENCH_BEFORE=<checkout of the platform without tracing>, that platform too
 * (whether tracing off costs anything). With tracing on every request is sampled and its spans go to an OTLP/HTTP sink
 * in this process, which counts them: the spans received per request served show that tracing really ran.
 *   [BENCH_BEFORE=/path/to/checkout] bash scripts/pnpm.sh exec tsx bench/tracing/overhead.ts [seconds per run] [connections]
 * (BENCH_ROUNDS rounds, default 6)
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { compareManyModes } from "../lib/compare-many.js";
import { HASH_REQUEST } from "../lib/hash-request.js";

const spansByName = new Map<string, number>();
let exports = 0;
const sink = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { resourceSpans?: { scopeSpans?: { spans?: { name: string }[] }[] }[] };
    for (const resource of body.resourceSpans ?? []) {
      for (const scope of resource.scopeSpans ?? []) for (const span of scope.spans ?? []) spansByName.set(span.name, (spansByName.get(span.name) ?? 0) + 1);
    }
    exports++;
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
});
await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));

// BENCH_BEFORE=<checkout>: that checkout's text-toolkit bench server (the platform before tracing) as a fourth server.
const before = process.env.BENCH_BEFORE ? `${process.env.BENCH_BEFORE}/bench/text-toolkit/server.ts` : undefined;
await compareManyModes(
  {
    serverScript: "bench/tracing/server.ts",
    ...HASH_REQUEST,
    seconds: Number(process.argv[2] ?? 3),
    connections: Number(process.argv[3] ?? 50),
  },
  [
    { label: "bare", mode: "bare" },
    ...(before ? [{ label: "before", mode: "platform", script: before }] : []),
    { label: "off", mode: "off" },
    { label: "on", mode: "on" },
  ],
  { BENCH_OTLP_ENDPOINT: `http://127.0.0.1:${(sink.address() as AddressInfo).port}` },
);
// What the "on" server exported, warm-up included; the last batch (up to 5 s) is still in the server when it is stopped.
console.log(JSON.stringify({ otlp_exports: exports, spans_received: Object.fromEntries(spansByName) }));
sink.close();
