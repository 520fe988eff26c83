/**
 * What writing a search's answer costs: Fastify's schema-compiled serializer (fast-json-stringify, as Fastify uses it
 * for a route with a response schema) against JSON.stringify, on real product-data pages:
 *
 *   bash scripts/pnpm.sh exec tsx bench/catalogue/serializers.ts
 *
 * bench/product-data/server.ts ingests both files and answers a few searches of 10 and 50 products; each page is
 * then written by both, in alternating rounds, and the time per page is printed (the text's UTF-8 length taken, which
 * joins a rope as the socket write does). Both must write the same text, or the comparison stops.
 */
import { fileURLToPath } from "node:url";
import fastJsonStringify from "fast-json-stringify";
import { successSchema } from "@apiplat/service-kit";
import * as S from "../../services/product-data/src/schemas.js";
import { NO_CACHE, startBenchServer } from "../lib/closed-loop.js";

const ROUNDS = 4;
const WRITES = 2_000;
const PAGES = ["/search?q=coffee&limit=50&facets=true", "/search?category=industrial-scientific&sort=price_asc&limit=50", "/search?q=led%20light&limit=10"];

const root = fileURLToPath(new URL("../../", import.meta.url));
const server = await startBenchServer(fileURLToPath(new URL("../product-data/server.ts", import.meta.url)), root);
const bodies: unknown[] = [];
try {
  for (const path of PAGES) {
    const response = await fetch(`http://127.0.0.1:${server.port}${path}`, { headers: { ...server.headers, ...NO_CACHE } });
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    bodies.push(await response.json());
  }
} finally {
  server.stop();
}

const compiled = fastJsonStringify(successSchema(S.ProductPage) as object);
const writers: [string, (body: unknown) => string][] = [
  ["fast-json-stringify (schema-compiled)", compiled as (body: unknown) => string],
  ["JSON.stringify", (body) => JSON.stringify(body)],
];

/** Microseconds per page. */
function measure(write: (body: unknown) => string, body: unknown): number {
  const started = performance.now();
  let bytes = 0;
  for (let i = 0; i < WRITES; i++) bytes += Buffer.byteLength(write(body));
  if (bytes === 0) throw new Error("nothing written");
  return ((performance.now() - started) * 1000) / WRITES;
}

for (const [index, body] of bodies.entries()) {
  const [fromSchema, fromJson] = writers.map(([, write]) => write(body));
  if (fromSchema !== fromJson) throw new Error(`${PAGES[index]}: the two serializers wrote different text`);
  const micros = writers.map(() => 0);
  for (let round = 0; round < ROUNDS; round++) writers.forEach(([, write], w) => (micros[w] += measure(write, body) / ROUNDS));
  console.log(`${PAGES[index]} (${fromJson.length} characters):`);
  writers.forEach(([name], w) => console.log(`  ${name}: ${micros[w].toFixed(1)} µs per page`));
}
