import { runSsrfSuite } from "./support/ssrf-suite.js";

/** OCR downloads the image at `url`, following up to five redirects, each hop through the outbound guard. */
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
  })),
});
