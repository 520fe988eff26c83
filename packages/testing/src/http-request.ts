import { request as httpRequest, type IncomingHttpHeaders } from "node:http";

export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * One request to a listening app on 127.0.0.1 over a real connection, for what Fastify's inject() never reaches (front
 * routes, the server itself). Any header may be set, Host included.
 */
export function requestOverHttp(port: number, method: string, path: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}
