import { describe, expect, it } from "vitest";
import { trimLeadingConnective } from "../../src/domain/bullets.js";
import { toolsFor } from "../../src/domain/languages.js";

const en = toolsFor("en");

describe("trimLeadingConnective", () => {
  it("drops one leading connective and keeps words that merely start like one", () => {
    expect(trimLeadingConnective("However, the roof leaks.", "en")).toBe("The roof leaks.");
    expect(trimLeadingConnective("As a result the roof leaks.", "en")).toBe("The roof leaks.");
    expect(trimLeadingConnective("Andrew fixed the roof.", "en")).toBe("Andrew fixed the roof.");
    expect(trimLeadingConnective("Außerdem regnet es.", "de")).toBe("Regnet es.");
    expect(trimLeadingConnective("Однако крыша протекает.", "ru")).toBe("Крыша протекает.");
    expect(trimLeadingConnective("但是，屋顶漏水。", "zh")).toBe("屋顶漏水。");
  });
});
