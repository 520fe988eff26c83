import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isApiError } from "@apiplat/errors";
import { createOutboundClient, ResponseTooLargeError } from "../src/index.js";

function listen(server: Server, host: string): Promise<number> {
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));
}

async function refusal(promise: Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isApiError(error)) return { status: error.statusCode, code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("outbound client", () => {
  let target: Server;
  let redirector: Server;
  let targetPort: number;
  let redirectorPort: number;

  beforeAll(async () => {
    target = createServer((req, res) => {
      if (req.url === "/big") return res.end(Buffer.alloc(2048, 97));
      if (req.url === "/slow") return setTimeout(() => res.end("late"), 2_000);
      if (req.url === "/echo") {
        const chunks: Buffer[] = [];
        req.on("data", (c) => chunks.push(c));
        return req.on("end", () => res.end(`${req.method} ${Buffer.concat(chunks).toString()}`));
      }
      if (req.url === "/loop") return res.writeHead(302, { location: "/loop" }).end();
      res.setHeader("x-test", "yes");
      res.end("hello");
    });
    targetPort = await listen(target, "127.0.0.2");
    // Listens on an allow-listed address and sends clients on to 127.0.0.1, which is not.
    redirector = createServer((req, res) => {
      const to = req.url === "/to-loopback" ? `http://127.0.0.1:${targetPort}/` : `http://127.0.0.2:${targetPort}/echo`;
      res.writeHead(req.url === "/see-other" ? 303 : 302, { location: to }).end();
    });
    redirectorPort = await listen(redirector, "127.0.0.2");
  });
  afterAll(async () => {
    target.close();
    redirector.close();
  });

  const onlyTestHost = () => createOutboundClient({ allowCidrs: ["127.0.0.2/32"], timeoutMs: 1_000 });

  it("fetches from an allow-listed local server", async () => {
    const client = onlyTestHost();
    const result = await client.fetch(`http://127.0.0.2:${targetPort}/`);
    expect(result.status).toBe(200);
    expect(result.body.toString()).toBe("hello");
    expect(result.headers["x-test"]).toBe("yes");
    await client.close();
  });

  it.each([
    ["decimal", "http://2130706433/"],
    ["octal", "http://0177.0.0.1/"],
    ["hex", "http://0x7f.1/"],
    ["IPv6 loopback", "http://[::1]/"],
    ["IPv6-mapped IPv4", "http://[::ffff:127.0.0.1]/"],
    ["metadata", "http://169.254.169.254/latest/meta-data/"],
    ["localhost by name", "http://localhost/"],
    ["private range", "http://10.0.0.1/"],
  ])("refuses %s addresses with a 400 naming the field", async (_name, url) => {
    const client = createOutboundClient();
    const error = await refusal(client.fetch(url, { field: "image_url" }));
    expect(error.status).toBe(400);
    expect(error.code).toBe("VALIDATION_ERROR");
    expect(error.message).toMatch(/^image_url must not (point|resolve) to a private/);
    await client.close();
  });

  it.each(["ftp://example.com/file", "file:///etc/passwd", "javascript:alert(1)", "not a url", "http://user:pw@example.com/"])("refuses %s", async (url) => {
    const error = await refusal(createOutboundClient().check(url));
    expect(error.status).toBe(400);
  });

  it("refuses a redirect to 127.0.0.1 from an allowed host as the caller's bad URL (400 naming the field)", async () => {
    const error = await refusal(onlyTestHost().fetch(`http://127.0.0.2:${redirectorPort}/to-loopback`));
    expect(error).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    expect(error.message).toContain("redirects to http://127.0.0.1");
  });

  it("follows allowed redirects and turns a 303 into a GET", async () => {
    const result = await onlyTestHost().fetch(`http://127.0.0.2:${redirectorPort}/see-other`, { method: "POST", body: "x" });
    expect(result.body.toString()).toBe("GET ");
    expect(result.url).toBe(`http://127.0.0.2:${targetPort}/echo`);
  });

  it("stops after the redirect limit", async () => {
    const error = await refusal(onlyTestHost().fetch(`http://127.0.0.2:${targetPort}/loop`, { maxRedirects: 3 }));
    expect(error).toMatchObject({ status: 502, message: "Gave up after 3 redirects." });
  });

  it("bounds the body size", async () => {
    const client = onlyTestHost();
    expect((await client.fetch(`http://127.0.0.2:${targetPort}/big`, { maxBytes: 2048 })).body.length).toBe(2048);
    const error = await refusal(client.fetch(`http://127.0.0.2:${targetPort}/big`, { maxBytes: 2047 }));
    expect(error).toMatchObject({ status: 502, code: "UPSTREAM_ERROR", message: `The response from 127.0.0.2:${targetPort} is larger than 2047 bytes.` });
    const typed = await client.fetch(`http://127.0.0.2:${targetPort}/big`, { maxBytes: 2047 }).catch((e: unknown) => e);
    expect(typed).toBeInstanceOf(ResponseTooLargeError);
    expect(typed).toMatchObject({ maxBytes: 2047, host: `127.0.0.2:${targetPort}` });
  });

  it("bounds the time", async () => {
    const error = await refusal(onlyTestHost().fetch(`http://127.0.0.2:${targetPort}/slow`, { timeoutMs: 200 }));
    expect(error).toMatchObject({ status: 504, code: "UPSTREAM_TIMEOUT" });
  });
});

describe("host names", () => {
  const notFound = Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });

  it("answers a name that does not resolve as an upstream failure (502), not as the caller's mistake", async () => {
    const client = createOutboundClient({ resolve: async () => Promise.reject(notFound) });
    const error = await refusal(client.check("https://no-such-host.example/page"));
    expect(error).toMatchObject({ status: 502, code: "UPSTREAM_ERROR" });
    expect(error.message).toContain("no-such-host.example does not resolve");
    await client.close();
  });

  it("refuses a name that resolves to a forbidden address with a 400 naming the field", async () => {
    const client = createOutboundClient({ resolve: async () => [{ address: "0.0.0.0", family: 4 }] });
    const error = await refusal(client.check("https://sneaky.example/", "image_url"));
    expect(error).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    await client.close();
  });
});
