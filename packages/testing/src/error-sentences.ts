/**
 * How a validation answer must read: each detail names its field in one notation (`a.b[2].c`), the issue starts
 * with a verb, and the message is those details as sentences, each field path once at its start.
 */
export interface ErrorEnvelope {
  error?: { code?: string; message?: string; details?: Array<{ field?: unknown; issue?: unknown }> };
}

/** A field path: names joined by dots, array positions in brackets, other keys as `["a;b"]`; a header keeps its dashes. */
const FIELD_PATH = /^(?:[A-Za-z_$][\w$-]*|\["(?:[^"\\]|\\.)*"\])(?:\[\d+\]|\.[A-Za-z_$][\w$-]*|\["(?:[^"\\]|\\.)*"\])*$/;

/** The words an issue may start with, so that "<field> <issue>" reads as a sentence. */
const VERBS = new Set([
  "must",
  "is",
  "are",
  "has",
  "have",
  "needs",
  "need",
  "cannot",
  "can",
  "may",
  "was",
  "were",
  "does",
  "do",
  "should",
  "names",
  "exceeds",
  "matches",
  "contains",
  "takes",
  "gives",
  "holds",
  "lists",
  "refers",
  "repeats",
  "allows",
]);

const REQUEST_PARTS = new Set(["path", "query", "body", "header", "headers"]);

/** Why a 400 answer does not read as sentences, or null when it does. */
export function sentenceProblem(envelope: ErrorEnvelope): string | null {
  const error = envelope.error;
  if (!error || error.code !== "VALIDATION_ERROR" || !error.details?.length) return null;
  for (const detail of error.details) {
    const field = String(detail.field);
    const issue = String(detail.issue);
    if (!FIELD_PATH.test(field)) return `the field "${field}" is not a path like a.b[2].c`;
    const first = issue.split(/[\s:;,]/)[0];
    if (!VERBS.has(first)) return `the issue of ${field} starts with "${first}", not a verb: "${field} ${issue}"`;
    if (issue.startsWith(`${field} `)) return `the issue repeats its field: "${field} ${issue}"`;
  }
  const message = String(error.message);
  const first = String(error.details[0].field);
  // A fault of the whole path, query or body reads as a sentence about it ("The JSON body is empty.").
  if (REQUEST_PARTS.has(first) && message.startsWith("The ")) return null;
  if (!message.startsWith(`${first} `)) return `the message does not start with its field ${first}: "${message}"`;
  if (message.startsWith(`${first} ${first} `)) return `the message names its field twice: "${message}"`;
  return null;
}
