import { runSsrfSuite } from "./support/ssrf-suite.js";

// Real Chromium: the redirect rows load the first hop in the browser, whose every request (redirects included) goes
// through the outbound guard; the refused hop fails the navigation with the guard's 400.
runSsrfSuite({
  service: "pdf-generation",
  env: { PDF_BROWSERS: "1" },
  prepare: async () => undefined,
  endpoints: [
    {
      name: "POST /from-url",
      field: "url",
      send: (service, _state, url) => service.app.inject({ method: "POST", url: "/from-url", headers: service.headers, payload: { url, timeout_ms: 20_000 } }),
      redirects: { kind: "refused", status: 400, code: "VALIDATION_ERROR" },
      // Chromium refuses these redirects itself, before the guard sees them, and the failure reads as the page's.
      knownGaps: {
        "302 to file": { status: 502, code: "UPSTREAM_ERROR", why: "net::ERR_UNSAFE_REDIRECT is reported as a page that could not load" },
        "302 to gopher": { status: 502, code: "UPSTREAM_ERROR", why: "net::ERR_ABORTED is reported as a page that could not load" },
      },
    },
  ],
  timeoutMs: 60_000,
});
