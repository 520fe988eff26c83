import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from "node:net";

/**
 * Hostile URLs for every service that fetches a user-given URL, and the two local servers they need. A leak of any of
 * them stays on this machine: the forbidden hosts are only loopback, 0.0.0.0 and [::] (which Linux connects to
 * loopback), all aimed at the canary's port. Private, metadata and IPv4-compatible addresses would leave the machine
 * if the guard failed, so they are tested against the address policy directly, never here.
 */

/** Where the guard must refuse to go, and the servers that tell whether it went. */
export interface SsrfTestbed {
  /**
   * Listens on 127.0.0.1 and [::1] at one port and counts every TCP connection (`connections` since the last reset,
   * `total` since it started); no hostile URL may ever reach it.
   */
  canary: { port: number; connections: number; total: number };
  /** Answers each request with the redirect its query asks for. Listens on 127.0.0.2, the one allow-listed address. */
  redirector: { origin: string; hits: string[] };
  /** OUTBOUND_ALLOW_CIDRS for the service under test: the redirector and nothing else (so 127.0.0.1 is forbidden). */
  allowCidrs: string;
  /** An allowed URL that answers `status` with Location `to`; each call gives a URL of its own. */
  redirect(to: string, status?: number): string;
  /** How many requests the redirector received for a URL made by redirect(). */
  hitsOf(url: string): number;
  /** Forgets the connections and hits seen so far. */
  reset(): void;
  close(): Promise<void>;
}

export type SsrfTargetKind =
  /** The URL's own host is forbidden, in one of its many spellings. */
  | "forbidden-host"
  /** Not http or https. */
  | "scheme"
  /** Credentials in the URL, or a host hidden behind an @. */
  | "userinfo"
  /** An allowed URL whose redirect leads to a forbidden place. */
  | "redirect";

export interface SsrfTarget {
  kind: SsrfTargetKind;
  name: string;
  url: (bed: SsrfTestbed) => string;
  /** For redirects: the status of the first answer (301, 302, 303, 307 or 308). */
  redirectStatus?: number;
}

const REDIRECTOR_HOST = "127.0.0.2";

/** The canary's port on a forbidden host, e.g. at("0.0.0.0") -> "http://0.0.0.0:<port>/". */
function at(host: string, path = "/"): (bed: SsrfTestbed) => string {
  return (bed) => `http://${host}:${bed.canary.port}${path}`;
}

function hostile(name: string, host: string): SsrfTarget {
  return { kind: "forbidden-host", name, url: at(host) };
}

function redirectTo(name: string, status: number, to: (bed: SsrfTestbed) => string): SsrfTarget {
  return { kind: "redirect", name, redirectStatus: status, url: (bed) => bed.redirect(to(bed), status) };
}

export const SSRF_TARGETS: readonly SsrfTarget[] = [
  hostile("loopback", "127.0.0.1"),
  hostile("loopback, another address of 127/8", "127.1.2.3"),
  hostile("loopback in decimal", "2130706433"),
  hostile("loopback in hex", "0x7f000001"),
  hostile("loopback in dotted hex", "0x7f.0x0.0x0.0x1"),
  hostile("loopback in octal", "0177.0.0.1"),
  hostile("loopback in short form", "127.1"),
  hostile("loopback with a trailing dot", "127.0.0.1."),
  hostile("loopback percent-encoded", "%31%32%37.0.0.1"),
  hostile("loopback in fullwidth digits", "\uff11\uff12\uff17.\uff10.\uff10.\uff11"),
  hostile("this host (0.0.0.0)", "0.0.0.0"),
  hostile("this host as 0", "0"),
  hostile("this host in hex", "0x0"),
  hostile("IPv6 unspecified", "[::]"),
  hostile("IPv6 unspecified written out", "[0:0:0:0:0:0:0:0]"),
  hostile("IPv6 loopback", "[::1]"),
  hostile("IPv6 loopback written out", "[0000:0000:0000:0000:0000:0000:0000:0001]"),
  hostile("IPv4-mapped loopback", "[::ffff:127.0.0.1]"),
  hostile("IPv4-mapped loopback in hex", "[::ffff:7f00:1]"),
  hostile("IPv4-mapped 0.0.0.0", "[::ffff:0.0.0.0]"),
  hostile("localhost by name", "localhost"),
  hostile("localhost in capitals with a trailing dot", "LOCALHOST."),
  { kind: "forbidden-host", name: "loopback in upper-case scheme", url: (bed) => `HTTP://127.0.0.1:${bed.canary.port}/` },
  { kind: "forbidden-host", name: "loopback behind backslashes", url: (bed) => `http:\\\\127.0.0.1:${bed.canary.port}\\` },
  { kind: "forbidden-host", name: "loopback with a tab inside the host", url: (bed) => `http://127.0.\t0.1:${bed.canary.port}/` },
  { kind: "forbidden-host", name: "loopback over https", url: (bed) => `https://127.0.0.1:${bed.canary.port}/` },

  { kind: "scheme", name: "file", url: () => "file:///etc/passwd" },
  { kind: "scheme", name: "file with a host", url: () => "file://127.0.0.1/etc/passwd" },
  { kind: "scheme", name: "gopher", url: (bed) => `gopher://127.0.0.1:${bed.canary.port}/_GET%20/%20HTTP/1.0%0D%0A` },
  { kind: "scheme", name: "ftp", url: (bed) => `ftp://127.0.0.1:${bed.canary.port}/` },
  { kind: "scheme", name: "data", url: () => "data:text/html,<h1>hello</h1>" },
  { kind: "scheme", name: "dict", url: (bed) => `dict://127.0.0.1:${bed.canary.port}/info` },
  { kind: "scheme", name: "websocket", url: (bed) => `ws://127.0.0.1:${bed.canary.port}/` },
  { kind: "scheme", name: "javascript", url: () => "javascript:alert(1)" },

  { kind: "userinfo", name: "credentials on a forbidden host", url: (bed) => `http://user:secret@127.0.0.1:${bed.canary.port}/` },
  { kind: "userinfo", name: "allowed host in the userinfo", url: (bed) => `http://${REDIRECTOR_HOST}:${redirectorPort(bed)}@127.0.0.1:${bed.canary.port}/` },
  { kind: "userinfo", name: "credentials on the allowed host", url: (bed) => `http://user:secret@${REDIRECTOR_HOST}:${redirectorPort(bed)}/` },
  { kind: "userinfo", name: "allowed host after a fragment", url: (bed) => `http://127.0.0.1:${bed.canary.port}#@${REDIRECTOR_HOST}:${redirectorPort(bed)}/` },
  {
    kind: "userinfo",
    name: "allowed host after a backslash",
    url: (bed) => `http://127.0.0.1:${bed.canary.port}\\@${REDIRECTOR_HOST}:${redirectorPort(bed)}/`,
  },

  redirectTo("302 to loopback", 302, at("127.0.0.1")),
  redirectTo("301 to 0.0.0.0", 301, at("0.0.0.0")),
  redirectTo("307 to [::]", 307, at("[::]")),
  redirectTo("308 to [::1]", 308, at("[::1]")),
  redirectTo("303 to IPv4-mapped loopback", 303, at("[::ffff:127.0.0.1]")),
  redirectTo("302 to loopback in decimal", 302, at("2130706433")),
  redirectTo("302 to localhost", 302, at("localhost")),
  redirectTo("302 to a scheme-relative 0.0.0.0", 302, (bed) => `//0.0.0.0:${bed.canary.port}/`),
  redirectTo("302 to file", 302, () => "file:///etc/passwd"),
  redirectTo("302 to gopher", 302, (bed) => `gopher://127.0.0.1:${bed.canary.port}/_x`),
  redirectTo("302 to credentials on loopback", 302, (bed) => `http://user:secret@127.0.0.1:${bed.canary.port}/`),
  redirectTo("302 then 302 to loopback", 302, (bed) => bed.redirect(`http://127.0.0.1:${bed.canary.port}/`, 302)),
];

function redirectorPort(bed: SsrfTestbed): string {
  return new URL(bed.redirector.origin).port;
}

function listen(server: TcpServer | HttpServer, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: TcpServer | HttpServer): Promise<void> {
  if ("closeAllConnections" in server) server.closeAllConnections();
  return new Promise((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
}

/** One port on both loopbacks: 0.0.0.0 reaches 127.0.0.1, [::] reaches [::1]. Retries when the IPv6 port is taken. */
async function startCanary(onConnection: () => void): Promise<{ port: number; servers: TcpServer[] }> {
  for (let attempt = 0; ; attempt++) {
    const canary = (socket: import("node:net").Socket) => {
      onConnection();
      socket.destroy();
    };
    const v4 = createTcpServer(canary);
    const port = await listen(v4, 0, "127.0.0.1");
    const v6 = createTcpServer(canary);
    try {
      await listen(v6, port, "::1");
      return { port, servers: [v4, v6] };
    } catch (error) {
      await closeServer(v4);
      const code = (error as NodeJS.ErrnoException).code;
      // No IPv6 on this machine: a leak to [::] or [::1] could not connect anywhere either.
      if (code === "EADDRNOTAVAIL" || code === "EAFNOSUPPORT") return { port: await listen(v4, 0, "127.0.0.1"), servers: [v4] };
      if (code !== "EADDRINUSE" || attempt >= 20) throw error;
    }
  }
}

/** Starts the canary and the redirector; the caller builds the service with `allowCidrs` and closes the bed. */
export async function startSsrfTestbed(): Promise<SsrfTestbed> {
  let nextId = 0;
  const canaryState = { port: 0, connections: 0, total: 0 };
  const { port, servers } = await startCanary(() => {
    canaryState.connections++;
    canaryState.total++;
  });
  canaryState.port = port;
  const redirectorState = { origin: "", hits: [] as string[] };
  const redirector = createHttpServer((req, res) => {
    redirectorState.hits.push(req.url ?? "");
    const query = new URL(req.url ?? "/", "http://redirector").searchParams;
    const to = query.get("to");
    if (!to) return res.writeHead(404).end();
    res.writeHead(Number(query.get("status") ?? 302), { location: to, "content-type": "text/html" }).end("<p>moved</p>");
  });
  redirectorState.origin = `http://${REDIRECTOR_HOST}:${await listen(redirector, 0, REDIRECTOR_HOST)}`;

  const idOf = (url: string) => new URL(url, "http://redirector").searchParams.get("id");
  return {
    canary: canaryState,
    redirector: redirectorState,
    allowCidrs: `${REDIRECTOR_HOST}/32`,
    redirect: (to, status = 302) => `${redirectorState.origin}/hop?id=${++nextId}&status=${status}&to=${encodeURIComponent(to)}`,
    hitsOf: (url) => redirectorState.hits.filter((hit) => idOf(hit) === idOf(url)).length,
    reset() {
      canaryState.connections = 0;
      redirectorState.hits.length = 0;
    },
    async close() {
      await Promise.all([...servers, redirector].map(closeServer));
    },
  };
}
