import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { NEWS_SENTENCES, newsPage, simplePdf, withMarker } from "./fixtures.js";

export interface PageServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  /** Paths requested so far, in order. */
  requests: string[];
  close(): Promise<void>;
}

function nestedArticle(divs: number): string {
  const paragraphs = NEWS_SENTENCES.map((sentence) => `<p>${sentence}</p>`).join("");
  return `<html><head><title>Nested</title></head><body>${"<div>".repeat(divs)}${paragraphs}${"</div>".repeat(divs)}</body></html>`;
}

/** A loopback web server with the pages the URL tests read. `marker` is planted in the article and the PDF. */
export async function startPageServer(marker = ""): Promise<PageServer> {
  const requests: string[] = [];
  let port = 0;
  const pages: Record<string, { type: string; body: string | Buffer; status?: number; location?: string }> = {
    "/article": { type: "text/html; charset=utf-8", body: newsPage(marker) },
    "/moved": { type: "text/plain", body: "", status: 302, location: "/article" },
    "/to-unspecified": { type: "text/plain", body: "", status: 302, location: "http://0.0.0.0:{port}/article" },
    "/report.pdf": { type: "application/pdf", body: simplePdf(withMarker(marker), "Library budget report") },
    "/notes.txt": { type: "text/plain; charset=utf-8", body: NEWS_SENTENCES.join("\n\n") },
    "/empty": { type: "text/html", body: "<html><head><title>Nothing</title></head><body><nav><a href='/'>Home</a></nav></body></html>" },
    "/scan.pdf": { type: "application/pdf", body: simplePdf([], "A scan") },
    "/logo.png": { type: "image/png", body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
    "/huge": { type: "text/plain", body: "word ".repeat(40_000) },
    // <html>, <body>, the <div>s and the <p>s: the paragraphs at depth 256 and 257.
    "/nested-256": { type: "text/html", body: nestedArticle(253) },
    "/nested-257": { type: "text/html", body: nestedArticle(254) },
  };
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0]!;
    requests.push(path);
    const page = pages[path];
    if (!page) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    response
      .writeHead(page.status ?? 200, { "content-type": page.type, ...(page.location ? { location: page.location.replace("{port}", String(port)) } : {}) })
      .end(page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
