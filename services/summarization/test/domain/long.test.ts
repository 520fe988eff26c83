import { describe, expect, it } from "vitest";
import { toolsFor } from "../../src/domain/languages.js";
import { chunkText, CHUNK_TOKENS } from "../../src/domain/long.js";
import { countTokens } from "../../src/domain/text.js";

const en = toolsFor("en");

describe("chunkText", () => {
  it("never makes a chunk over the chunk size out of sentences that fit", () => {
    const paragraph = (i: number) => `Paragraph ${i} has seven words in it. `.repeat(30).trim();
    const text = Array.from({ length: 40 }, (_, i) => paragraph(i)).join("\n\n") + "\n\n" + "One very long paragraph sentence. ".repeat(900);
    const chunks = chunkText(text, en);
    for (const chunk of chunks) expect(countTokens(chunk, "en")).toBeLessThanOrEqual(CHUNK_TOKENS);
    expect(chunks.join(" ").replace(/\s+/g, " ")).toBe(text.replace(/\s+/g, " ").trim());
  });
});
