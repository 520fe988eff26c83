import { randomBytes } from "node:crypto";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { SMTPServer } from "smtp-server";

/**
 * The relay of a local start (no SMTP_URL): an SMTP server on loopback that keeps every message it receives as an
 * .eml file (0600, in a 0700 folder). Nothing goes further: no message reaches a real inbox.
 */
export class LocalSink {
  private server: SMTPServer | null = null;
  port = 0;

  constructor(
    readonly outboxDir: string,
    private readonly maxBytes: number,
  ) {}

  async start(): Promise<void> {
    await mkdir(this.outboxDir, { recursive: true, mode: 0o700 });
    await chmod(this.outboxDir, 0o700);
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      hideDSN: false,
      size: this.maxBytes,
      logger: false,
      banner: "local sink: messages are stored as .eml files, never delivered",
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) {
            callback(Object.assign(new Error("552 message exceeds the size limit"), { responseCode: 552 }));
            return;
          }
          const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.eml`;
          writeFile(path.join(this.outboxDir, name), Buffer.concat(chunks), { mode: 0o600 }).then(
            () => callback(null, `stored as ${name}`),
            (error: Error) => callback(Object.assign(new Error(`451 could not store the message: ${error.message}`), { responseCode: 451 })),
          );
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(0, "127.0.0.1", () => resolve());
    });
    this.port = (this.server.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  listening(): boolean {
    return this.server?.server.listening ?? false;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
