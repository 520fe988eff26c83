import { SSRF_TARGETS } from "@apiplat/testing";
import { runSsrfSuite } from "./support/ssrf-suite.js";

/**
 * OCR downloads the image at `url`, following up to five redirects, each hop through the outbound guard. The guard
 * refuses the forbidden hop, but answers it as 502 UPSTREAM_ERROR ("The URL redirected to <host>, which may not be
 * reached.") where a 4xx naming the field is expected.
 */
const REDIRECT_GAPS = Object.fromEntries(
  SSRF_TARGETS.filter((target) => target.kind === "redirect").map((target) => [
    target.name,
    { status: 502, code: "UPSTREAM_ERROR", why: "the outbound client answers a refused redirect hop as an upstream failure" },
  ]),
);

runSsrfSuite({
  service: "ocr",
  // No OCR worker is started: no row gets as far as recognising an image.
  env: { OCR_POOL_SIZE: "1", OCR_WARM_LANGUAGES: "" },
  prepare: async () => undefined,
  endpoints: ["/extract", "/extract/structured"].map((path) => ({
    name: `POST ${path}`,
    field: "url",
    send: (service, _state, url) => service.app.inject({ method: "POST", url: path, headers: service.headers, payload: { url } }),
    redirects: { kind: "refused", status: 400, code: "VALIDATION_ERROR" },
    knownGaps: REDIRECT_GAPS,
  })),
});
