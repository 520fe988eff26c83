import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startForwardProxy, type ForwardProxy, type ProxyRefusal } from "@apiplat/outbound-guard";
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
    // NetworkTimeServiceQuerying: the clock check against clients2.google.com that every start would try.
    "--disable-features=Prerender2,NoStatePrefetch,SpeculationRulesPrefetchFuture,LoadingPredictorUseOptimizationGuide,NetworkTimeServiceQuerying",
  ];
}

/** Puppeteer turns Chromium's pop-up blocker off by default; it stays on here. */
export const IGNORED_DEFAULT_ARGS = ["--disable-popup-blocking"];

/**
 * Profile preferences with no command-line switch: the WebRTC policy again (the switch only seeds it) and no
 * network prediction (preconnect, DNS prefetch, prerender): 2 is NETWORK_PREDICTION_NEVER.
 */
const PROFILE_PREFERENCES = {
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
    void target
      .page()
      .then((page) => page?.close())
      .catch(() => undefined);
  });
}

/** Starts Chromium inside a network namespace of its own; see the script. */
const NAMESPACE_LAUNCHER = fileURLToPath(new URL("../../bin/chromium-in-netns.sh", import.meta.url));

/**
 * True when this machine lets the service give Chromium a network namespace of its own (root, or a container
 * allowed to create namespaces, with `ip` to bring its loopback up).
 */
export function networkNamespaceWorks(): Promise<boolean> {
  return new Promise((resolve) => {
    execFile("unshare", ["--net", "--", "ip", "link", "set", "lo", "up"], { timeout: 5_000 }, (error) => resolve(error === null));
  });
}

interface NamespacedLaunch {
  executablePath: string;
  env: Record<string, string | undefined>;
}

/**
 * How to launch Chromium in its own network namespace: its only route is a relay, inside, from the proxy's port on
 * 127.0.0.1 to the proxy's Unix socket outside, so `--proxy-server` stays the same.
 */
export function namespacedLaunch(chromium: string, proxyServer: string, proxySocketPath: string, profileDir: string): NamespacedLaunch {
  return {
    executablePath: NAMESPACE_LAUNCHER,
    env: {
      ...process.env,
      PDF_CHROMIUM: chromium,
      PDF_PROXY_PORT: new URL(proxyServer).port,
      PDF_PROXY_SOCKET: proxySocketPath,
      PDF_RELAY_READY: join(profileDir, "relay-ready"),
      PDF_NODE: process.execPath,
    },
  };
}

export interface BrowserProxy {
  proxy: ForwardProxy;
  /** The browsers run in network namespaces of their own (the proxy also listens on a Unix socket for them). */
  isolated: boolean;
  close(): Promise<void>;
}

/**
 * The service's forward proxy for its browsers; with `namespace: "auto"` and a machine that allows it, also on a
 * Unix socket in a private directory, for browsers in network namespaces of their own.
 */
export async function startBrowserProxy(options: {
  allowCidrs: readonly string[];
  namespace: "auto" | "off";
  onRefused: (refusal: ProxyRefusal) => void;
}): Promise<BrowserProxy> {
  const isolated = options.namespace === "auto" && (await networkNamespaceWorks());
  const socketDir = isolated ? await mkdtemp(join(tmpdir(), "pdf-proxy-")) : null;
  const proxy = await startForwardProxy({
    allowCidrs: options.allowCidrs,
    socketPath: socketDir ? join(socketDir, "proxy.sock") : undefined,
    onRefused: options.onRefused,
  });
  return {
    proxy,
    isolated,
    close: async () => {
      await proxy.close();
      if (socketDir) await rm(socketDir, { recursive: true, force: true });
    },
  };
}

/**
 * Logs refused browser connections, at most `perMinute` lines a minute and then one line saying how many more
 * there were: a page that loops over WebSockets must not flood the log.
 */
export function throttledRefusalLog(warn: (fields: Record<string, unknown>, message: string) => void, perMinute = 30): (refusal: ProxyRefusal) => void {
  let windowStart = 0;
  let logged = 0;
  let suppressed = 0;
  return (refusal) => {
    const now = Date.now();
    if (now - windowStart >= 60_000) {
      if (suppressed > 0) warn({ suppressed }, "the outbound guard refused more browser connections than were logged");
      windowStart = now;
      logged = 0;
      suppressed = 0;
    }
    if (logged >= perMinute) {
      suppressed += 1;
      return;
    }
    logged += 1;
    warn({ refusal }, "the outbound guard refused a connection the browser opened");
  };
}
