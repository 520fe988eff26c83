import { describe, expect, it } from "vitest";
import { startService } from "@apiplat/testing";
import { serviceUnderTest } from "@apiplat/testing/service-under-test";
import service from "../src/service.js";

const svc = serviceUnderTest(() => startService(service));

interface Sentence {
  index: number;
  text: string;
  score: number;
}

/** Every sentence of a short text (10 at most), with its score, under a style. */
async function allSentences(text: string, style?: string): Promise<Sentence[]> {
  const res = await svc.started.app.inject({
    method: "POST",
    url: "/summarize",
    headers: svc.caller.headers,
    payload: { text, style, min_length: 10, max_length: 10 },
  });
  expect(res.statusCode).toBe(200);
  expect(res.json().data.style).toBe(style ?? null);
  return res.json().data.sentences;
}

/** How a style changed the score of sentence `a` relative to sentence `b` (scores are scaled, ratios are not). */
async function relativeWeight(text: string, style: string, a: number, b: number): Promise<number> {
  const plain = await allSentences(text);
  const styled = await allSentences(text, style);
  return styled[a]!.score / styled[b]!.score / (plain[a]!.score / plain[b]!.score);
}

/** Expects each `[a, b, weight]`: the style's relative weight of sentence `a` to sentence `b`, to two decimals. */
async function expectWeights(text: string, style: string, weights: [a: number, b: number, weight: number][]): Promise<void> {
  for (const [a, b, weight] of weights) expect(await relativeWeight(text, style, a, b)).toBeCloseTo(weight, 2);
}

describe("style", () => {
  it("formal spells out English contractions with one reading, and leaves 's and 'd", async () => {
    const text =
      "We don't know the final cost yet. It can't be finished before May. They're building two branches and we've hired ten workers. " +
      "I'm sure the council won't cancel it. Let's wait and see what the mayor's office said it'd do.";
    expect((await allSentences(text, "formal")).map((s) => s.text)).toEqual([
      "We do not know the final cost yet.",
      "It cannot be finished before May.",
      "They are building two branches and we have hired ten workers.",
      "I am sure the council will not cancel it.",
      "Let us wait and see what the mayor's office said it'd do.",
    ]);
    expect((await allSentences(text)).map((s) => s.text)[0]).toBe("We don't know the final cost yet.");
  });

  it("formal halves questions, exclamations and sentences in the first or second person", async () => {
    const text =
      "How will the council pay for the new libraries? The council will pay for the new libraries with a tax on hotel rooms. " +
      "The tax on hotel rooms brings in two million dollars a year for the libraries. We think the libraries will be worth every cent!";
    await expectWeights(text, "formal", [
      [0, 1, 0.5],
      [3, 2, 0.5],
      [2, 1, 1],
    ]);
  });

  it("casual drops parenthetical asides and bracketed references", async () => {
    const text = "The new library (which opened in 2019) holds 40,000 books [3]. Its reading room seats 120 people (more than any other in the region).";
    expect((await allSentences(text, "casual")).map((s) => s.text)).toEqual(["The new library holds 40,000 books.", "Its reading room seats 120 people."]);
    expect((await allSentences(text, "technical")).map((s) => s.text)).toEqual([
      "The new library (which opened in 2019) holds 40,000 books [3].",
      "Its reading room seats 120 people (more than any other in the region).",
    ]);
  });

  it("casual weighs a sentence past 20 words down in proportion", async () => {
    const long =
      "The library board, after a long series of public meetings held in the town hall over the winter, finally agreed on the design of the new reading room.";
    const text = `The library board agreed on the design of the new reading room. ${long} The reading room will open to the public next year.`;
    const words = long.split(" ").length; // 29
    await expectWeights(text, "casual", [
      [1, 0, 1 / (1 + (words - 20) / 20)],
      [2, 0, 1],
    ]);
  });

  it("technical prefers sentences with figures (x1.5), more with an acronym, identifier or unit (x1.25)", async () => {
    const text =
      "The new branch library will be larger than the old branch library. The branch library covers 2,400 square meters of floor. " +
      "Its network reaches 10 GB per user through a new API gateway. The branch library also has a garden.";
    await expectWeights(text, "technical", [
      [1, 0, 1.5],
      [2, 0, 1.875],
      [3, 0, 1],
    ]);
  });

  it("changes which sentence a one-sentence summary takes", async () => {
    const text =
      "Why did the branch library close early this week? The branch library closed early because a water pipe burst on Monday. " +
      "Repairs to the branch library will cost 12,000 USD and take 9 days.";
    const pick = async (style?: string) =>
      (await svc.started.app.inject({ method: "POST", url: "/summarize", headers: svc.caller.headers, payload: { text, style, max_length: 1 } })).json().data
        .sentences[0].index;
    expect(await pick()).toBe(0);
    expect(await pick("formal")).toBe(1);
    expect(await pick("technical")).toBe(2);
  });

  // Each text below made a regular expression backtrack quadratically (hours at this size); now each is linear.
  it("weighs and restyles texts shaped against its patterns in linear time", async () => {
    const summarize = (text: string, style: string) =>
      svc.started.app.inject({ method: "POST", url: "/summarize", headers: svc.caller.headers, payload: { text, style } });
    // One 1,000,000-letter word: "\w+_\w+" tried from every letter.
    const word = await summarize("a".repeat(1_000_000), "technical");
    expect(word.statusCode).toBe(200);
    expect(word.json().data.counts).toMatchObject({ source_words: 1, source_sentences: 1 });
    // A sentence with a 200,000-space gap before a word: "\s*(...)" and "\s+[,.]" tried from every space.
    const gap = await summarize(`Gap${" ".repeat(200_000)}here and there again.`, "casual");
    expect(gap.statusCode).toBe(200);
    expect(gap.json().data.summary).toBe("Gap here and there again.");
  });
});
