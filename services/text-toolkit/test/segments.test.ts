import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { segmentsOf } from "../src/domain/segments.js";

// Pieces that make ICU's rules look past a boundary: decimals, abbreviations, marks, emoji sequences, flags, CR LF.
const PIECES = [
  "a",
  "B",
  "3",
  ".",
  ",",
  " ",
  "\n",
  "\r\n",
  "\u0301",
  "👍",
  "🏽",
  "\u200d",
  "🇫",
  "🇷",
  "?",
  "!",
  '"',
  "'",
  "e.g.",
  "Mr.",
  "3.5",
  "U.S.",
  "\t",
  "ф",
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 1_500 }).map((parts) => parts.join(""));
const shape = (segments: Iterable<Intl.SegmentData>) => [...segments].map((s) => [s.index, s.segment, s.isWordLike]);

describe("segmentsOf", () => {
  for (const granularity of ["grapheme", "word", "sentence"] as const) {
    it(`gives the ${granularity} segments of one pass over the whole text`, () => {
      const segmenter = new Intl.Segmenter("en", { granularity });
      fc.assert(
        fc.property(text, (t) => {
          expect(shape(segmentsOf(segmenter, t))).toEqual(shape(segmenter.segment(t)));
        }),
        { numRuns: 300 },
      );
    });
  }
});
