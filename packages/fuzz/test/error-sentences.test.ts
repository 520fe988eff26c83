/** The reading rule the fuzz suite applies to every validation answer, on the shapes it must refuse and accept. */
import { describe, expect, it } from "vitest";
import { sentenceProblem } from "@apiplat/testing";

const answer = (message: string, details: Array<{ field: string; issue: string }>) => ({
  error: { code: "VALIDATION_ERROR", message, details },
});

describe("a validation answer reads as sentences", () => {
  it.each([
    ["a phrase glued to the field", answer("url give exactly one of url or image.", [{ field: "url", issue: "give exactly one of url or image" }])],
    ["two fields as one", answer("url,image must be one.", [{ field: "url,image", issue: "must be one" }])],
    ["a position after a dot", answer("ip_allowlist.0 must be an address.", [{ field: "ip_allowlist.0", issue: "must be an address" }])],
    ["a count glued to the field", answer("to at most 50 recipients.", [{ field: "to", issue: "at most 50 recipients" }])],
    ["a message that does not start with its field", answer("Unknown country.", [{ field: "country", issue: "is not supported" }])],
    ["the field twice", answer("to to must be short.", [{ field: "to", issue: "to must be short" }])],
  ])("refuses %s", (_name, envelope) => {
    expect(sentenceProblem(envelope)).not.toBeNull();
  });

  it.each([
    answer("to[1] must be an email address.", [{ field: "to[1]", issue: "must be an email address" }]),
    answer('headers["a;b"] must be one line.', [{ field: 'headers["a;b"]', issue: "must be one line" }]),
    answer("The JSON body is empty.", [{ field: "body", issue: "must not be empty" }]),
    answer("input must be a string or an array.", [{ field: "input", issue: "must be a string or an array" }]),
  ])("accepts %j", (envelope) => {
    expect(sentenceProblem(envelope)).toBeNull();
  });
});
