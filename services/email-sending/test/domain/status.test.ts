import { describe, expect, it } from "vitest";
import { statusAfter } from "../../src/domain/status.js";

describe("statusAfter", () => {
  it("moves forward only, lets bounces and complaints override progress", () => {
    expect(statusAfter("queued", "sent")).toBe("sent");
    expect(statusAfter("clicked", "opened")).toBe("clicked");
    expect(statusAfter("delivered", "deferred")).toBe("delivered");
    expect(statusAfter("delivered", "bounced")).toBe("bounced");
    expect(statusAfter("bounced", "delivered")).toBe("bounced");
    expect(statusAfter("opened", "complained")).toBe("complained");
    expect(statusAfter("cancelled", "complained")).toBe("cancelled");
    expect(statusAfter("sent", "unsubscribed")).toBe("sent");
  });
});
