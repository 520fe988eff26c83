import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SSRF_TARGETS, startSsrfTestbed, type SsrfTarget, type SsrfTestbed } from "@apiplat/testing";
import { buildServiceForTest, type ServiceUnderTest, type SuiteServiceName } from "./services.js";

/** What inject() answers; only the parts the suite reads. */
export interface Answer {
  statusCode: number;
  json(): any;
}

/** What a service does with an allowed URL that redirects to a forbidden place. */
export type RedirectHandling =
  /** It follows redirects through the guard, which refuses the forbidden hop: the answer is this error. */
  | { kind: "refused"; status: number; code: string }
  /** It never follows redirects: it reports the 3xx it received (read by `reportedStatus`, which may have to wait). */
  | { kind: "unfollowed"; reportedStatus: (answer: Answer, service: ServiceUnderTest) => Promise<number> }
  /** It only judges the URL and never fetches it (link targets): the link is accepted, nothing is contacted. */
  | { kind: "never-fetched"; acceptedStatus: number };

export interface SsrfEndpoint<State> {
  /** Shown in test names, e.g. "POST /extract". */
  name: string;
  /** The request field that carries the URL: refusals must name it. */
  field: string;
  send(service: ServiceUnderTest, state: State, url: string): Promise<Answer>;
  redirects: RedirectHandling;
  /**
   * Rows (by target name) that the service refuses, safely, but with another answer than the suite expects: each is a
   * known gap to close, asserted as it stands so that closing it shows here.
   */
  knownGaps?: Record<string, { status: number; code: string; why: string }>;
}

/** How one service is put through the table: later services (summarization, crawlers) add one of these. */
export interface SsrfRunner<State> {
  service: SuiteServiceName;
  /** The service's own settings for the run (OUTBOUND_ALLOW_CIDRS is the suite's). */
  env?: Record<string, string>;
  /** What the endpoints need before the first row (an inbox, a captured request). */
  prepare(service: ServiceUnderTest): Promise<State>;
  endpoints: SsrfEndpoint<State>[];
  /** Per-row time limit, for services that start a browser. */
  timeoutMs?: number;
}

function expectError(answer: Answer, status: number, code: string): void {
  const body = answer.json();
  expect(answer.statusCode, JSON.stringify(body)).toBe(status);
  expect(body.status).toBe("error");
  expect(body.error.code).toBe(code);
}

/** The shared envelope of a refusal naming the URL's field. */
function expectFieldRefusal(answer: Answer, field: string): void {
  expectError(answer, 400, "VALIDATION_ERROR");
  expect(answer.json().error.details?.map((d: { field: string }) => d.field)).toContain(field);
}

async function expectSafeRedirect(
  answer: Answer,
  handling: RedirectHandling,
  target: SsrfTarget,
  url: string,
  { bed, service }: { bed: SsrfTestbed; service: ServiceUnderTest },
): Promise<void> {
  const body = answer.json();
  if (handling.kind === "never-fetched") {
    expect(answer.statusCode, JSON.stringify(body)).toBe(handling.acceptedStatus);
    expect(bed.hitsOf(url)).toBe(0);
    return;
  }
  if (handling.kind === "refused") {
    expectError(answer, handling.status, handling.code);
  } else {
    expect(answer.statusCode, JSON.stringify(body)).toBeLessThan(300);
    expect(await handling.reportedStatus(answer, service)).toBe(target.redirectStatus);
  }
  // The service did reach the allowed first hop: the refusal came from the redirect, not from an earlier check.
  expect(bed.hitsOf(url)).toBeGreaterThanOrEqual(1);
}

/**
 * Every row of SSRF_TARGETS through every endpoint of one service, built with the redirector as its only
 * allow-listed address. Each row must be refused (or, for redirects, handled as the endpoint declares) and the
 * canary must see no connection, during the row and over the whole run.
 */
export function runSsrfSuite<State>(runner: SsrfRunner<State>): void {
  describe(`${runner.service} against the shared SSRF targets`, () => {
    let bed: SsrfTestbed;
    let service: ServiceUnderTest;
    let state: State;

    beforeAll(async () => {
      bed = await startSsrfTestbed();
      service = await buildServiceForTest(runner.service, { ...runner.env, OUTBOUND_ALLOW_CIDRS: bed.allowCidrs });
      state = await runner.prepare(service);
    });
    afterAll(async () => {
      await service?.close();
      await bed?.close();
    });

    const rows = runner.endpoints.flatMap((endpoint) =>
      SSRF_TARGETS.map((target) => {
        const gap = endpoint.knownGaps?.[target.name];
        return { endpoint, target, gap, title: `${endpoint.name} ${endpoint.field}, ${target.kind}: ${target.name}${gap ? " (known gap)" : ""}` };
      }),
    );

    it.each(rows)(
      "$title",
      async ({ endpoint, target, gap }) => {
        bed.reset();
        const url = target.url(bed);
        const answer = await endpoint.send(service, state, url);
        if (target.kind === "redirect") {
          const handling: RedirectHandling = gap ? { kind: "refused", status: gap.status, code: gap.code } : endpoint.redirects;
          await expectSafeRedirect(answer, handling, target, url, { bed, service });
        } else {
          if (gap) expectError(answer, gap.status, gap.code);
          else expectFieldRefusal(answer, endpoint.field);
          expect(bed.redirector.hits).toEqual([]);
        }
        expect(bed.canary.connections).toBe(0);
      },
      runner.timeoutMs,
    );

    it("names only rows of the table among its known gaps", () => {
      const names = new Set(SSRF_TARGETS.map((target) => target.name));
      const gaps = runner.endpoints.flatMap((endpoint) => Object.keys(endpoint.knownGaps ?? {}));
      expect(gaps.filter((name) => !names.has(name))).toEqual([]);
    });

    it("let no connection reach the canary over the whole run", () => {
      expect(bed.canary.total).toBe(0);
    });
  });
}
