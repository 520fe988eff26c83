/**
 * Adversarial shapes for email content, generated: templates of random nesting (sections and inverted sections, up
 * to 3,000 deep), tag floods and list amplification; HTML built from the pieces that break link rewriters (`<a `,
 * unclosed quotes, entities, repeated hrefs, script text) sent with click tracking. Never a 5xx; only the answers the
 * bounds promise; the preview of an accepted template renders or names its budget.
 * FUZZ_SEED=<n> replays a run; FUZZ_RUNS sets runs per property.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { deployedService } from "@apiplat/deployment";
import type { ServiceApp } from "@apiplat/service-kit";
import { createTestPlatform, type TestPlatform } from "@apiplat/testing";

const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

let platform: TestPlatform;
let app: ServiceApp;
let headers: Record<string, string>;
let saved = 0;

beforeAll(async () => {
  platform = await createTestPlatform({
    env: { LOG_LEVEL: "silent", EMAIL_SECRET: "fuzz-secret-of-at-least-thirty-two-chars", EMAIL_INBOUND_PORT: "0", EMAIL_INBOUND_HOST: "127.0.0.1" },
  });
  app = await (await deployedService("email-sending"))!.build(platform.deps);
  headers = (await platform.subscribe("email-sending", "MEGA")).headers;
});
afterAll(async () => {
  await app?.close();
  await platform?.close();
});

const post = (url: string, payload: object) => app.inject({ method: "POST", url, headers, payload });

function expectEnvelope(res: { statusCode: number; body: string }, allowed: number[]): void {
  if (!allowed.includes(res.statusCode)) throw new Error(`answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
  if (res.statusCode >= 400) expect(JSON.parse(res.body)).toMatchObject({ status: "error", error: { code: expect.any(String), message: expect.any(String) } });
}

/** A template part: nested sections around text and variables, sometimes unbalanced, sometimes very deep. */
const templatePart = fc
  .record({
    depth: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constantFrom(16, 17, 3000)),
    opener: fc.constantFrom("#", "^"),
    name: fc.constantFrom("a", "b", "a.b", ".", "x".repeat(201)),
    inner: fc.array(fc.constantFrom("{{a}}", "{{{a}}}", "{{& b}}", "text", "{{!c}}", "{{=<% %>=}}", "<%a%>", "{{a"), { maxLength: 20 }),
    unbalanced: fc.boolean(),
    floodTags: fc.constantFrom(0, 0, 0, 10_001),
  })
  .map(({ depth, opener, name, inner, unbalanced, floodTags }) => {
    const close = `{{/${name}}}`.repeat(unbalanced ? Math.max(0, depth - 1) : depth);
    return `{{${opener}${name}}}`.repeat(depth) + inner.join("") + close + "{{a}}".repeat(floodTags);
  });

const variables = fc.record({
  a: fc.oneof(fc.constant([1, 2]), fc.constant([1, 2, 3]), fc.array(fc.integer(), { maxLength: 2_000 }), fc.string(), fc.constant({ b: [[1, 2]] })),
  b: fc.oneof(fc.boolean(), fc.array(fc.boolean(), { maxLength: 50 }), fc.constant("x".repeat(100_000))),
});

/** HTML from the pieces that broke regular-expression rewriters, repeated up to thousands of times. */
const hostileHtml = fc
  .array(
    fc.record({
      piece: fc.constantFrom(
        "<a ",
        "<a href=",
        '"',
        "'",
        "https://shop.example.com/p",
        "&amp;",
        "&#x27;",
        " data-no-track",
        ">",
        "</a>",
        "<script>",
        "</script>",
        " href=",
        "javascript:x",
        "\u0000",
        "<!--",
        "-->",
      ),
      times: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 5_000 })),
    }),
    { minLength: 1, maxLength: 12 },
  )
  .map((parts) => parts.map(({ piece, times }) => piece.repeat(times)).join(""));

describe("email-sending: hostile templates", () => {
  it("saves within the bounds or answers 400; an accepted template renders or names its budget", async () => {
    await fc.assert(
      fc.asyncProperty(templatePart, variables, async (html, vars) => {
        const name = `f${++saved}`;
        const save = await post("/templates", { name, subject: "s", html });
        expectEnvelope(save, [201, 400]);
        if (save.statusCode !== 201) return;
        const render = await post(`/templates/${name}/render`, { variables: vars });
        expectEnvelope(render, [200, 400, 422]);
        await app.inject({ method: "DELETE", url: `/templates/${name}`, headers });
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });
});

describe("email-sending: hostile HTML with click tracking", () => {
  it("accepts (202) or refuses with a 4xx naming html, never a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(hostileHtml, async (html) => {
        const res = await post("/send", {
          to: "reader@example.com",
          subject: "fuzz",
          html,
          track_clicks: true,
          send_at: new Date(Date.now() + 3_600_000).toISOString(),
        });
        expectEnvelope(res, [202, 400, 422]);
        if (res.statusCode === 422) expect(JSON.parse(res.body).error.details[0].field).toBe("html");
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });
});
