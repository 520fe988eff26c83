import { describe, expect, it } from "vitest";
import { bounceTypeOf, interpretReport, parseDeliveryStatus } from "../../src/domain/reports.js";

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
