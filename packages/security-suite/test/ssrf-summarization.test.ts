import { runSsrfSuite } from "./support/ssrf-suite.js";

/** Summarization reads the page at `url` (alone, with text, for bullet points and key phrases) through the guard. */
runSsrfSuite({
  service: "summarization",
  prepare: async () => undefined,
  endpoints: [
    ["/summarize/url", {}],
    ["/summarize", { text: "One sentence of text. Another sentence of text." }],
    ["/bullet-points", {}],
    ["/keywords", {}],
  ].map(([path, extra]) => ({
    name: `POST ${path}`,
    field: "url",
    send: (service, _state, url) =>
      service.app.inject({ method: "POST", url: path as string, headers: service.headers, payload: { ...(extra as object), url } }),
    redirects: { kind: "refused", status: 400, code: "VALIDATION_ERROR" },
  })),
});
