import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from "smtp-server";

/** An SMTP error reply; its code is the reply's first three digits. */
export function smtpReply(text: string): Error {
  return Object.assign(new Error(text), { responseCode: Number(text.slice(0, 3)) });
}

export interface SmtpReceiverOptions {
  /** The server's own options, but for its size limit and its handling of a message's data. */
  smtp: Omit<SMTPServerOptions, "size" | "logger" | "onData">;
  maxBytes: number;
  /** The reply to a message over maxBytes. */
  tooLarge: string;
  /** Takes a whole message: resolves with the reply's text (or the server's default), rejects with an smtpReply. */
  receive: (raw: Buffer, session: SMTPServerSession) => Promise<string | undefined>;
  /** Told of a connection's failure (a client that reset it); that connection is closed and the server serves on. */
  onConnectionError?: (error: Error) => void;
}

/** An SMTP server on one address that hands each whole message within its size limit to `receive`. */
export class SmtpReceiver {
  private server: SMTPServer | null = null;
  port = 0;

  constructor(private readonly options: SmtpReceiverOptions) {}

  async start(port: number, host: string): Promise<void> {
    const { smtp, maxBytes, tooLarge, receive } = this.options;
    const server = new SMTPServer({
      ...smtp,
      size: maxBytes,
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) {
            callback(smtpReply(tooLarge));
            return;
          }
          receive(Buffer.concat(chunks), session).then(
            (reply) => callback(null, reply),
            (error: Error) => callback(error),
          );
        });
      },
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => {
        server.off("error", reject);
        // smtp-server emits a connection's errors (a client that resets it, ECONNRESET) on the server: unheard, one
        // such client would end the process.
        server.on("error", (error: Error) => this.options.onConnectionError?.(error));
        resolve();
      });
    });
    this.port = (server.server.address() as AddressInfo).port;
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
