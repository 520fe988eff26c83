import { describe, expect, it } from "vitest";
import { cursorPage } from "../src/cursor-page.js";

describe("cursorPage", () => {
  it("answers `limit` rows and a cursor after the last when the extra row came", () => {
    expect(cursorPage([1, 2, 3], 2, (last) => `after ${last}`)).toEqual({ page: [1, 2], nextCursor: "after 2" });
  });

  it("has no next cursor on the last page", () => {
    expect(cursorPage([1, 2], 2, (last) => `after ${last}`)).toEqual({ page: [1, 2], nextCursor: null });
    expect(cursorPage([], 2, (last) => `after ${last}`)).toEqual({ page: [], nextCursor: null });
  });
});
