/**
 * The settings with which the suites that start every deployed service at once (conformance, fuzz) start them:
 * nothing scheduled or fetched at start from the internet, no long warm-up, no fixed port (such suites run side by
 * side). A service that fetches or warms something of its own accord at start, or listens on a port besides HTTP's,
 * adds here the setting that turns it off (docs/DEVELOPING.md, "Adding a service"); packages/conformance checks that
 * each one is still read by a service.
 */
export const QUIET_SERVICES_ENV: Readonly<Record<string, string>> = {
  CURRENCY_FETCH_SCHEDULE: "off",
  CURRENCY_FETCH_ON_START: "false",
  PUBLIC_HOLIDAYS_WARM_UP: "false",
  OCR_WARM_LANGUAGES: "",
  EMAIL_INBOUND_PORT: "0",
};
