import { runSsrfSuite } from "./support/ssrf-suite.js";

/** An allowed link target (the allow-listed redirector's address, no port): the shortener never fetches it. */
const HARMLESS_TARGET = "http://127.0.0.2/page";

// The shortener only judges link targets (it never fetches them): hostile ones are refused on creation, and a URL
// that would redirect somewhere forbidden is a link like any other, since the browser that follows it is the user's.
runSsrfSuite({
  service: "url-shortener",
  prepare: async () => undefined,
  endpoints: [
    {
      name: "POST /shorten",
      field: "url",
      send: (service, _state, url) => service.app.inject({ method: "POST", url: "/shorten", headers: service.headers, payload: { url } }),
      redirects: { kind: "never-fetched", acceptedStatus: 201 },
    },
    {
      name: "POST /shorten",
      field: "fallback_url",
      send: (service, _state, url) =>
        service.app.inject({ method: "POST", url: "/shorten", headers: service.headers, payload: { url: HARMLESS_TARGET, fallback_url: url } }),
      redirects: { kind: "never-fetched", acceptedStatus: 201 },
    },
    {
      name: "PUT /settings",
      field: "fallback_url",
      send: (service, _state, url) => service.app.inject({ method: "PUT", url: "/settings", headers: service.headers, payload: { fallback_url: url } }),
      redirects: { kind: "never-fetched", acceptedStatus: 200 },
    },
  ],
});
