import { describe, expect, it } from "vitest";
import { call, startService } from "@apiplat/testing";
import { serviceUnderTest } from "@apiplat/testing/service-under-test";
import * as S from "../src/schemas.js";
import service from "../src/service.js";

const svc = serviceUnderTest(() => startService(service));

const post = (payload: object, headers = svc.caller.headers) => call(svc.started, S.Keywords, { method: "POST", url: "/keywords", headers, payload });

/** The abstract RAKE's paper (Rose et al. 2010) uses as its example. */
const ABSTRACT =
  "Compatibility of systems of linear constraints over the set of natural numbers. Criteria of compatibility of a system " +
  "of linear Diophantine equations, strict inequations, and nonstrict inequations are considered. Upper bounds for " +
  "components of a minimal set of solutions and algorithms of construction of minimal generating sets of solutions for " +
  "all types of systems are given.";

describe("POST /keywords", () => {
  it("scores RAKE phrases as worked out by hand", async () => {
    // Candidates (runs between stopwords-iso English stopwords and punctuation; "numbers", "system" and "given" are
    // stopwords there): compatibility x2, systems x2, linear constraints, set, natural, criteria, linear Diophantine
    // equations, strict inequations, nonstrict inequations, considered, upper bounds, components, minimal set,
    // solutions x2, algorithms, construction, minimal generating sets, types.
    // Word degree/frequency: linear 5/2, diophantine 3/1, equations 3/1, minimal 5/2, generating 3/1,
    // set(s) 6/3, constraints 2/1, strict, nonstrict, inequations 4/2, upper, bounds 2/1; the rest 1.
    const res = await post({ text: ABSTRACT, top_n: 10 });
    expect(res.status).toBe(200);
    const data = res.data;
    expect(data).toMatchObject({ method: "rake", language: "en", language_detected: true, source: { kind: "text" } });
    expect(data.keywords).toEqual([
      { phrase: "linear Diophantine equations", score: 8.5, count: 1 },
      { phrase: "minimal generating sets", score: 7.5, count: 1 },
      { phrase: "linear constraints", score: 4.5, count: 1 },
      { phrase: "minimal set", score: 4.5, count: 1 },
      { phrase: "strict inequations", score: 4, count: 1 },
      { phrase: "nonstrict inequations", score: 4, count: 1 },
      { phrase: "Upper bounds", score: 4, count: 1 },
      { phrase: "set", score: 2, count: 1 },
      { phrase: "Compatibility", score: 1, count: 2 },
      { phrase: "systems", score: 1, count: 2 },
    ]);
  });

  it("returns 10 phrases by default and at most top_n", async () => {
    expect((await post({ text: ABSTRACT })).data.keywords).toHaveLength(10);
    expect((await post({ text: ABSTRACT, top_n: 2 })).data.keywords.map((k: { phrase: string }) => k.phrase)).toEqual([
      "linear Diophantine equations",
      "minimal generating sets",
    ]);
  });

  it("never starts or ends a phrase with a stopword, in German too", async () => {
    const text = "Die Europäische Zentralbank hat die Leitzinsen erneut erhöht. Die Europäische Zentralbank will damit die hohe Inflation bekämpfen.";
    const data = (await post({ text })).data;
    expect(data.language).toBe("de");
    // "Leitzinsen erneut erhöht": three words seen once, each with degree 3 -> 9. "Europäische Zentralbank": twice,
    // each word with frequency 2 and degree 4 -> 2 + 2.
    expect(data.keywords[0]).toEqual({ phrase: "Leitzinsen erneut erhöht", score: 9, count: 1 });
    expect(data.keywords).toContainEqual({ phrase: "Europäische Zentralbank", score: 4, count: 2 });
    for (const { phrase } of data.keywords) expect(phrase).not.toMatch(/^(die|hat|will|damit)\b|\b(die|hat|will|damit)$/i);
  });

  it("bounds top_n to 1..50", async () => {
    for (const top_n of [0, 51]) {
      const res = await post({ text: ABSTRACT, top_n });
      expect(res.status).toBe(400);
      expect(res.error.details?.[0].field).toBe("top_n");
    }
    expect((await post({ text: ABSTRACT, top_n: 50 })).status).toBe(200);
  });

  it("needs text or url", async () => {
    const res = await post({ top_n: 3 });
    expect(res.status).toBe(400);
    expect(res.error.details).toEqual([{ field: "text", issue: "is required unless url is given: send the text, a page address, or both" }]);
  });

  it("needs a key for this service", async () => {
    expect((await svc.started.app.inject({ method: "POST", url: "/keywords", payload: { text: ABSTRACT } })).json().error.code).toBe("MISSING_API_KEY");
    const res = await post({ text: ABSTRACT }, { ...svc.caller.headers, "x-gateway-host": "geocoding.api.local" });
    expect(res.status).toBe(403);
  });
});
