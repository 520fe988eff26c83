import { describe, expect, it } from "vitest";
import { toolsFor } from "../../src/domain/languages.js";
import { joinSentences, splitSentences } from "../../src/domain/sentences.js";

const en = toolsFor("en");

describe("splitSentences", () => {
  it("treats blank lines as hard boundaries and a line break followed by lower case as a wrapped line", () => {
    const text = "Heading without a stop\n\nFirst sentence is\nwrapped over two lines. Second one.\nThird One here.";
    expect(splitSentences(text, en).map((s) => [s.paragraph, s.text])).toEqual([
      [0, "Heading without a stop"],
      [1, "First sentence is wrapped over two lines."],
      [1, "Second one."],
      [1, "Third One here."],
    ]);
  });

  it("splits very long paragraphs the same way as short ones", () => {
    const sentence = "Mr. Lee paid 3.5 dollars in the U.S. Army store today. ";
    const text = sentence.repeat(500);
    const found = splitSentences(text, en);
    expect(found).toHaveLength(500);
    expect(new Set(found.map((s) => s.text))).toEqual(new Set([sentence.trim()]));
  });
});

describe("joinSentences", () => {
  it("puts no space after a CJK sentence end and one space after any other", () => {
    expect(joinSentences(["市议会周二批准了新预算。", "预算将图书馆的开放时间延长一倍！", "你觉得怎么样？"])).toBe(
      "市议会周二批准了新预算。预算将图书馆的开放时间延长一倍！你觉得怎么样？",
    );
    expect(joinSentences(["他说：“预算很好。”", "投票结果是七比二。"])).toBe("他说：“预算很好。”投票结果是七比二。");
    expect(joinSentences(["今日は晴れです。", "公園に行きましょう…", "いいですね。"])).toBe("今日は晴れです。公園に行きましょう…いいですね。");
    expect(joinSentences(["The council met.", '"It passed."', "Wait…", "Done."])).toBe('The council met. "It passed." Wait… Done.');
    expect(joinSentences(["Het plan werkt.", "市议会批准了。", "Le vote a eu lieu."])).toBe("Het plan werkt. 市议会批准了。Le vote a eu lieu.");
    expect(joinSentences([])).toBe("");
  });
});
