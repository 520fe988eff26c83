import { describe, expect, it } from "vitest";
import { parseLastEventId, sseEvent } from "../../src/domain/sse.js";

describe("SSE", () => {
  it("formats events and parses Last-Event-ID", () => {
    expect(sseEvent("7", "request", '{"a":1}')).toBe('id: 7\nevent: request\ndata: {"a":1}\n\n');
    expect(parseLastEventId("12")).toBe(12);
    expect(parseLastEventId("x")).toBeNull();
    expect(parseLastEventId(undefined)).toBeNull();
  });
});
