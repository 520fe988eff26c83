import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type FeedResponse = { status: number; body: Buffer | string; type?: string };
export type FeedRoute = FeedResponse | ((url: URL, accept: string) => FeedResponse);

/** A local HTTP server standing in for the banks: it replays recorded feed files at configured paths. */
export class FeedServer {
  readonly hits = new Map<string, number>();
  private server: Server | undefined;
  private readonly routes = new Map<string, FeedRoute>();

  route(path: string, response: FeedRoute): this {
    this.routes.set(path, response);
    return this;
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://localhost");
      this.hits.set(url.pathname, (this.hits.get(url.pathname) ?? 0) + 1);
      const route = this.routes.get(url.pathname);
      const answer = typeof route === "function" ? route(url, req.headers.accept ?? "") : (route ?? { status: 404, body: "not found" });
      res.writeHead(answer.status, { "content-type": answer.type ?? "application/octet-stream" });
      res.end(answer.body);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
