import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Target } from "puppeteer-core";

/**
 * How Chromium is kept from reaching the network except through the service's guarded forward proxy.
 *
 * Request interception (network-policy.ts) sees the page's ordinary requests, but Chromium also opens connections
 * of its own that interception never sees: `<link rel=prefetch>`, WebSockets, pop-ups, WebRTC (STUN over UDP, TURN
 * over TCP), workers. So every connection is sent to the proxy, which applies the outbound guard to each target
 * after resolving it; nothing is exempt (not even loopback), UDP is refused to WebRTC, speculative connections are
 * off and pop-ups are blocked and closed.
 */
export function networkBoundaryArgs(proxyServer: string): string[] {
  return [
    `--proxy-server=${proxyServer}`,
    // Chromium never proxies loopback unless told so; "<-loopback>" removes that implicit exemption.
    "--proxy-bypass-list=<-loopback>",
    // The proxy resolves host names; Chromium itself has nothing to look up (no DNS prefetch, no DNS as a channel).
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
    // Only connections that can go through the proxy (TCP): no STUN or TURN over UDP, no host candidates.
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
    // The switch's older name, kept for builds that still read it (Chromium 156 ignores it).
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--disable-features=Prerender2,NoStatePrefetch,SpeculationRulesPrefetchFuture,LoadingPredictorUseOptimizationGuide",
  ];
}

/** Puppeteer turns Chromium's pop-up blocker off by default; it stays on here. */
export const IGNORED_DEFAULT_ARGS = ["--disable-popup-blocking"];

/**
 * Profile preferences with no command-line switch: the WebRTC policy again (the switch only seeds it) and no
 * network prediction (preconnect, DNS prefetch, prerender): 2 is NETWORK_PREDICTION_NEVER.
 */
export const PROFILE_PREFERENCES = {
  webrtc: { ip_handling_policy: "disable_non_proxied_udp", multiple_routes_enabled: false, nonproxied_udp_enabled: false },
  net: { network_prediction_options: 2 },
};

/** A private profile directory holding the preferences; the caller removes it when the browser has gone. */
export async function createProfileDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "pdf-chromium-"));
  await mkdir(join(dir, "Default"), { mode: 0o700 });
  await writeFile(join(dir, "Default", "Preferences"), JSON.stringify(PROFILE_PREFERENCES), { mode: 0o600 });
  return dir;
}

export async function removeProfileDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
}

/**
 * Closes every page a document opens (window.open, target=_blank) the moment it appears. Pages the pool opens
 * itself have no opener.
 */
export function closePopups(browser: Browser, onPopup?: (url: string) => void): void {
  browser.on("targetcreated", (target: Target) => {
    if (target.type() !== "page" || target.opener() === undefined) return;
    onPopup?.(target.url());
    void target.page().then((page) => page?.close()).catch(() => undefined);
  });
}
