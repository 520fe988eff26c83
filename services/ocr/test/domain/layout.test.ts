import { describe, expect, it } from "vitest";
import { cleanText } from "../../src/domain/layout.js";

describe("text clean-up", () => {
  it("drops the spaces Tesseract puts inside Chinese and Japanese runs, and trailing blanks", () => {
    expect(cleanText("我 们 的 发 票 ， 请 付款 。 \n東京 都 の IKEA 2024 年 \n\n")).toBe("我们的发票，请付款。\n東京都の IKEA 2024 年");
  });
});
