import { randomBytes } from "node:crypto";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { SmtpReceiver, smtpReply } from "./smtp-receiver.js";

/**
 * The relay of a local start (no SMTP_URL): an SMTP server on loopback that keeps every message it receives as an
 * .eml file (0600, in a 0700 folder). Nothing goes further: no message reaches a real inbox.
 */
export class LocalSink {
  private readonly receiver: SmtpReceiver;

  constructor(
    readonly outboxDir: string,
    maxBytes: number,
  ) {
    this.receiver = new SmtpReceiver({
      smtp: {
        authOptional: true,
        disabledCommands: ["STARTTLS", "AUTH"],
        hideDSN: false,
        banner: "local sink: messages are stored as .eml files, never delivered",
      },
      maxBytes,
      tooLarge: "552 message exceeds the size limit",
      receive: async (raw) => {
        const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.eml`;
        try {
          await writeFile(path.join(this.outboxDir, name), raw, { mode: 0o600 });
        } catch (error) {
          throw smtpReply(`451 could not store the message: ${(error as Error).message}`);
        }
        return `stored as ${name}`;
      },
    });
  }

  async start(): Promise<void> {
    await mkdir(this.outboxDir, { recursive: true, mode: 0o700 });
    await chmod(this.outboxDir, 0o700);
    await this.receiver.start(0, "127.0.0.1");
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.receiver.port}`;
  }

  listening(): boolean {
    return this.receiver.listening();
  }

  stop(): Promise<void> {
    return this.receiver.stop();
  }
}
