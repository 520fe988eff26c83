import { createSocket, type Socket as UdpSocket } from "node:dgram";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { html, pdfBytes, TEST_SETTINGS, startSite, type TestService, type TestSite, whenBrowsersWarm } from "./helpers.js";
import { startService } from "@apiplat/testing";
import pdfService from "../src/service.js";
import { pageTexts, wordBoxes } from "./pdf-tools.js";

/**
 * Chromium opens some connections itself, out of sight of request interception. These tests aim every such vector
 * at a TCP listener and a UDP socket on 127.0.0.1 (and at 0.0.0.0, which lands on the same listener) and assert
 * that nothing arrives: the guarded forward proxy is the browser's only way out, and it refuses loopback.
 */

interface Trap {
  tcpPort: number;
  udpPort: number;
  /** What arrived directly: one entry per TCP connection (its first line) or UDP datagram. */
  arrivals: string[];
  close: () => Promise<void>;
}

async function startTrap(): Promise<Trap> {
  const arrivals: string[] = [];
  const tcp: TcpServer = createTcpServer((socket) => {
    const index = arrivals.push("tcp connection") - 1;
    socket.once("data", (chunk: Buffer) => (arrivals[index] = `tcp: ${chunk.toString("latin1").split("\r\n")[0]}`));
    socket.on("error", () => undefined);
    setTimeout(() => socket.destroy(), 200);
  });
  await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
  const udp: UdpSocket = createSocket("udp4");
  udp.on("message", (message) => arrivals.push(`udp: ${message.length} bytes`));
  await new Promise<void>((resolve) => udp.bind(0, "127.0.0.1", resolve));
  return {
    tcpPort: (tcp.address() as AddressInfo).port,
    udpPort: udp.address().port,
    arrivals,
    close: async () => {
      udp.close();
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}

/** Everything a document can make Chromium fetch or connect to without scripts. */
function markupVectors(t: Trap): string {
  return [
    `<link rel="prefetch" href="http://127.0.0.1:${t.tcpPort}/prefetch">`,
    `<link rel="preconnect" href="http://0.0.0.0:${t.tcpPort}">`,
    `<link rel="dns-prefetch" href="http://127.0.0.1:${t.tcpPort}">`,
    `<img src="http://127.0.0.1:${t.tcpPort}/img">`,
    `<iframe src="http://0.0.0.0:${t.tcpPort}/frame"></iframe>`,
  ].join("");
}

/** Connections only scripts open; the WebRTC servers are the trap (STUN and TURN over UDP, TURN over TCP). */
function scriptVectors(t: Trap): string {
  return `<script>
    const tcp = "127.0.0.1:${t.tcpPort}", any = "0.0.0.0:${t.tcpPort}", udp = "127.0.0.1:${t.udpPort}";
    try { new WebSocket("ws://" + tcp + "/ws"); } catch {}
    try { new WebSocket("ws://" + any + "/ws"); } catch {}
    try { window.open("http://" + tcp + "/popup"); } catch {}
    fetch("http://" + tcp + "/fetch", { mode: "no-cors" }).catch(() => {});
    const xhr = new XMLHttpRequest(); xhr.open("GET", "http://" + any + "/xhr"); xhr.send();
    try { navigator.sendBeacon("http://" + tcp + "/beacon", "x"); } catch {}
    new Worker(URL.createObjectURL(new Blob(['fetch("http://' + tcp + '/worker").catch(() => {})'])));
    const pc = new RTCPeerConnection({ iceServers: [
      { urls: "stun:" + udp },
      { urls: "turn:" + udp + "?transport=udp", username: "u", credential: "p" },
      { urls: "turn:" + tcp + "?transport=tcp", username: "u", credential: "p" },
    ] });
    pc.createDataChannel("probe");
    pc.createOffer().then((offer) => pc.setLocalDescription(offer)).catch(() => {});
  </script>`;
}

/**
 * /from-html has no delay option: after load, the page's main thread is kept busy for a while, which holds the
 * renderer's next step (it needs that thread) while ICE gathering and the other connections run on theirs.
 */
const HOLD_AFTER_LOAD = `<script>addEventListener("load", () => setTimeout(() => { const end = Date.now() + 1500; while (Date.now() < end); }, 100));</script>`;

/** Lets late connections (ICE gathering retries) arrive before the trap is read. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

let trap: Trap;
let locked: TestService;
let narrow: TestService;
let attacker: TestSite;

beforeAll(async () => {
  trap = await startTrap();
  // Without the network namespace (where the machine allows one, it alone would keep these connections in): these
  // services test the proxy and the browser's flags, the boundary every deployment has.
  const proxyOnly = { networkNamespace: "off" } as const;
  // The allow-list off: loopback (and 0.0.0.0) is refused.
  locked = await whenBrowsersWarm(await startService(pdfService, { settings: { ...TEST_SETTINGS, ...proxyOnly } }));
  // /from-url needs a page to load: the attacker's site on 127.0.0.2 is allow-listed, the trap on 127.0.0.1 is not.
  narrow = await whenBrowsersWarm(
    await startService(pdfService, { env: { OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32" }, settings: { ...TEST_SETTINGS, ...proxyOnly } }),
  );
  attacker = await startSite(
    {
      "/attack": (_req: IncomingMessage, res: ServerResponse) =>
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html(`<p>Attack page</p>${markupVectors(trap)}${scriptVectors(trap)}`)),
    },
    "127.0.0.2",
  );
});
afterAll(async () => {
  await locked?.close();
  await narrow?.close();
  await attacker?.close();
  await trap?.close();
});

describe("the browser reaches nothing directly", () => {
  beforeEach(() => {
    trap.arrivals.length = 0;
  });

  test("/from-html without JavaScript: prefetch, preconnect, image and frame", async () => {
    const res = await locked.ask("/from-html", { html: html(`<p>Static</p>${markupVectors(trap)}`) }, "MEGA", "?response=json");
    expect(res.status).toBe(200);
    await settle();
    expect(trap.arrivals).toEqual([]);
    const blocked = res.data.blocked_requests.map((b) => b.url);
    expect(blocked).toContain(`http://127.0.0.1:${trap.tcpPort}/img`);
  });

  test("/from-html with JavaScript: WebSocket, window.open, fetch, XHR, beacon, worker and WebRTC too", async () => {
    const document = html(`<p>Scripted</p>${markupVectors(trap)}${scriptVectors(trap)}${HOLD_AFTER_LOAD}`);
    const res = await locked.post("/from-html", { html: document, javascript: true });
    expect(res.statusCode).toBe(200);
    expect(pageTexts(pdfBytes(res))[0]).toContain("Scripted");
    await settle();
    expect(trap.arrivals).toEqual([]);
  });

  test("/from-url with JavaScript (the default): the same vectors from a fetched page, given time to run", async () => {
    const res = await narrow.post("/from-url", { url: `${attacker.origin}/attack`, wait_until: "load", delay_ms: 2000 });
    expect(res.statusCode).toBe(200);
    expect(pageTexts(pdfBytes(res))[0]).toContain("Attack page");
    await settle();
    expect(trap.arrivals).toEqual([]);
  });
});

describe("the boundary does not break rendering", () => {
  let open: TestService;
  let site: TestSite;
  const via = new Map<string, string | undefined>();

  beforeAll(async () => {
    // In a network namespace where the machine allows it: the relay to the proxy must carry what rendering needs.
    open = await whenBrowsersWarm(await startService(pdfService, { env: { OUTBOUND_ALLOW_CIDRS: "127.0.0.0/8" }, settings: TEST_SETTINGS }));
    const serve = (body: string, type: string) => (req: IncomingMessage, res: ServerResponse) => {
      via.set(req.url ?? "", req.headers.via);
      res.writeHead(200, { "content-type": type }).end(body);
    };
    site = await startSite({
      "/page": serve(
        html(
          `<p class="big">Styled page</p><a id="away" href="/popup-link" target="_blank">away</a><script>
        try { new WebSocket("ws://localhost:" + location.port + "/ws"); } catch {}
        try { window.open("/popup"); } catch {}
        document.getElementById("away").click();
      </script>`,
          '<link rel="stylesheet" href="/style.css">',
        ),
        "text/html; charset=utf-8",
      ),
      "/style.css": serve(".big { font-size: 40pt }", "text/css"),
      "/ws": serve("WebSocket handshake seen", "text/plain"),
    });
  });
  afterAll(async () => {
    await open?.close();
    await site?.close();
  });

  test("with loopback allow-listed, sub-resources load, Chromium's own connections pass through the proxy, pop-ups do not open", async () => {
    const res = await open.post("/from-url", { url: `${site.origin}/page`, wait_until: "networkidle0" });
    expect(res.statusCode).toBe(200);
    const word = wordBoxes(pdfBytes(res)).find((w) => w.word === "Styled")!;
    expect(word.yMax - word.yMin).toBeGreaterThan(35);
    // The stylesheet came through request interception (fetched by the service, no Via); the WebSocket handshake,
    // which interception never sees, through a CONNECT tunnel of the proxy: the only way out, as the tests above
    // show, and open to loopback here because the allow-list says so.
    expect(via.get("/style.css")).toBeUndefined();
    expect(site.hits.get("/ws")).toBe(1);
    // Pop-ups stay blocked even where the proxy would let them load.
    expect(site.hits.get("/popup")).toBeUndefined();
    expect(site.hits.get("/popup-link")).toBeUndefined();
  });
});
