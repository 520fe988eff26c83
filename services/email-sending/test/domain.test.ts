import { describe, expect, it } from "vitest";
import { parseAddress } from "../src/domain/addresses.js";
import { base64DecodedSize } from "../src/domain/message.js";
import { bounceTypeOf, interpretReport, parseDeliveryStatus } from "../src/domain/reports.js";
import { retryDelayMs, nextAttemptAt } from "../src/domain/smtp-retry.js";
import { statusAfter } from "../src/domain/status.js";
import { signToken, verifyToken } from "../src/domain/tokens.js";
import { machineAgent, rewriteLinks } from "../src/domain/tracking.js";
import { missingVariables, requiredVariables } from "../src/domain/templates.js";

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

describe("addresses", () => {
  it("parses names, lower-cases the domain, refuses what is not an address", () => {
    expect(parseAddress('"Lovelace, Ada" <Ada@Example.COM>')).toEqual({ name: "Lovelace, Ada", address: "Ada@example.com" });
    for (const bad of [
      "a@b",
      "@example.com",
      "a b@example.com",
      "a@-x.com",
      "a..b@example.com",
      `${"x".repeat(65)}@example.com`,
      "Name <a@example.com>\r\nBcc: x",
    ]) {
      expect(parseAddress(bad), bad).toBeNull();
    }
  });
});

describe("base64DecodedSize", () => {
  it("computes decoded bytes from the text, padding and line breaks included", () => {
    for (const n of [0, 1, 2, 3, 4, 57, 1000]) {
      const encoded = Buffer.alloc(n, 1)
        .toString("base64")
        .replace(/(.{76})/g, "$1\r\n");
      expect(base64DecodedSize(encoded)).toBe(n);
    }
    expect(base64DecodedSize("not base64!")).toBeNull();
  });
});

describe("retry schedule", () => {
  it("doubles from the base, caps at an hour, and ends with the window", () => {
    expect(retryDelayMs(1, 60_000, 0.5)).toBe(60_000);
    expect(retryDelayMs(3, 60_000, 0.5)).toBe(240_000);
    expect(retryDelayMs(30, 60_000, 0.5)).toBe(3_600_000);
    expect(retryDelayMs(1, 60_000, 0)).toBe(48_000);
    const first = new Date("2026-01-01T00:00:00Z");
    expect(nextAttemptAt(first, new Date("2026-01-01T23:00:00Z"), 20, 60_000, 24 * 3_600_000, 0.5)).toEqual(new Date("2026-01-02T00:00:00Z"));
    expect(nextAttemptAt(first, new Date("2026-01-01T23:30:00Z"), 20, 60_000, 24 * 3_600_000, 0.5)).toBeNull();
  });
});

describe("DSN and ARF", () => {
  it("reads per-recipient fields with folded lines", () => {
    const parsed = parseDeliveryStatus(
      "Reporting-MTA: dns; mx.a.example\n\nFinal-Recipient: rfc822; X@B.example\nAction: failed\nStatus: 5.2.2\nDiagnostic-Code: smtp; 552 mailbox\n  full\n",
    );
    expect(parsed).toEqual({
      reportingMta: "mx.a.example",
      recipients: [{ email: "x@b.example", originalRecipient: null, action: "failed", status: "5.2.2", diagnostic: "552 mailbox full", remoteMta: null }],
    });
    expect(bounceTypeOf({ status: "4.2.2", diagnostic: null })).toBe("soft");
    expect(bounceTypeOf({ status: null, diagnostic: "452 try later" })).toBe("soft");
    expect(bounceTypeOf({ status: null, diagnostic: null })).toBe("hard");
  });

  it("recognises a complaint and a plain-text bounce", () => {
    const complaint = interpretReport({
      reportType: "feedback-report",
      subject: "",
      text: "",
      raw: "",
      parts: [{ contentType: "message/feedback-report", content: "Feedback-Type: abuse\nOriginal-Rcpt-To: <R@x.example>\n" }],
    });
    expect(complaint).toEqual({ kind: "complaint", feedbackType: "abuse", recipient: "r@x.example", userAgent: null });
    const plain = interpretReport({ reportType: null, subject: "failure notice", text: "Sorry.\n550 5.1.1 mailbox unavailable\n", raw: "", parts: [] });
    expect(plain).toEqual({ kind: "unstructured_bounce", diagnostic: "550 5.1.1 mailbox unavailable", permanent: true });
  });
});

describe("tokens and links", () => {
  it("verify only what was signed with the same key", () => {
    const key = Buffer.alloc(32, 1);
    const token = signToken(key, { m: "msg_1" });
    expect(verifyToken(key, token)).toEqual({ m: "msg_1" });
    expect(verifyToken(Buffer.alloc(32, 2), token)).toBeNull();
    expect(verifyToken(key, token.replace(/^./, "x"))).toBeNull();
  });

  it("rewrites only absolute http(s) links, decoding entities", () => {
    const out = rewriteLinks(
      '<a href="https://a.example/?x=1&amp;y=2">A</a><a href=\'mailto:x@y.z\'>M</a><a data-no-track href="https://b.example/">B</a>',
      (u) => `T(${u})`,
    );
    expect(out).toBe('<a href="T(https://a.example/?x=1&amp;y=2)">A</a><a href=\'mailto:x@y.z\'>M</a><a data-no-track href="https://b.example/">B</a>');
    expect(machineAgent("Mozilla/5.0")).toBe("apple_mail_privacy_protection");
    expect(machineAgent("Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)")).toBeNull();
  });
});

describe("template variables", () => {
  it("requires names outside sections; sections are optional", () => {
    expect(requiredVariables("{{a}} {{{b}}} {{& c}} {{#d}}{{e}}{{/d}} {{^f}}x{{/f}}")).toEqual(["a", "b", "c"]);
    expect(missingVariables(["{{a}} {{b.c}}"], { a: 0, b: { c: null } })).toEqual(["b.c"]);
  });
});
