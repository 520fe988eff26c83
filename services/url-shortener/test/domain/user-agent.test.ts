import { describe, expect, it } from "vitest";
import { referrerDomain } from "../../src/domain/referrer.js";
import { UserAgentClassifier } from "../../src/domain/user-agent.js";
import { GOOGLEBOT, SAFARI_IPHONE } from "../helpers.js";

describe("user agents and referrers", () => {
  const classifier = new UserAgentClassifier();
  it("classify device, browser, OS and bots", () => {
    expect(classifier.classify(SAFARI_IPHONE)).toEqual({ deviceType: "mobile", browser: "Mobile Safari", os: "iOS", isBot: false });
    expect(classifier.classify(GOOGLEBOT)).toMatchObject({ deviceType: "bot", isBot: true });
    expect(classifier.classify("")).toEqual({ deviceType: "unknown", browser: null, os: null, isBot: true });
  });

  it("reduce a referrer to its host without www.", () => {
    expect(referrerDomain("https://www.News.example/a?b")).toBe("news.example");
    expect(referrerDomain("garbage")).toBeNull();
    expect(referrerDomain(undefined)).toBeNull();
  });
});
