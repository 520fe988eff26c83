import net, { type AddressInfo } from "node:net";

/**
 * Plain SMTP on loopback for the suites that attack a mail service from outside: a client that speaks one session
 * the way a hostile MTA would (and reports the reply to each step), and a relay stand-in that keeps each envelope.
 */

export interface SmtpOutcome {
  /** The reply code to RCPT TO. */
  rcpt: number;
  /** The reply code after the data, or null when RCPT TO was refused and no data was sent. */
  data: number | null;
}

/** Reads SMTP replies off a socket: each `next()` resolves with the code of the next complete (multi-line) reply. */
function replyReader(socket: net.Socket) {
  let buffer = "";
  const waiting: ((code: number) => void)[] = [];
  const ready: number[] = [];
  socket.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("latin1");
    for (let end = buffer.indexOf("\r\n"); end >= 0; end = buffer.indexOf("\r\n")) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      // "250-..." continues a reply; "250 ..." (or a bare "250") ends it.
      if (!/^\d{3}(?: |$)/.test(line)) continue;
      const code = Number(line.slice(0, 3));
      const waiter = waiting.shift();
      if (waiter) waiter(code);
      else ready.push(code);
    }
  });
  return {
    next: () =>
      new Promise<number>((resolve, reject) => {
        const code = ready.shift();
        if (code !== undefined) return resolve(code);
        waiting.push(resolve);
        socket.once("error", reject);
      }),
  };
}

/** One SMTP session to 127.0.0.1:`port`: a null sender, one recipient, `message` as the data when RCPT TO is taken. */
export async function smtpDeliver(port: number, recipient: string, message: string): Promise<SmtpOutcome> {
  const socket = net.connect(port, "127.0.0.1");
  const replies = replyReader(socket);
  const command = async (line: string) => {
    socket.write(`${line}\r\n`);
    return replies.next();
  };
  try {
    await replies.next();
    await command("EHLO attacker.test");
    await command("MAIL FROM:<>");
    const rcpt = await command(`RCPT TO:<${recipient}>`);
    if (rcpt >= 400) return { rcpt, data: null };
    const go = await command("DATA");
    if (go !== 354) return { rcpt, data: go };
    const body = message.replace(/\r?\n/g, "\r\n").replace(/^\./gm, "..");
    const data = await command(`${body}${body.endsWith("\r\n") ? "" : "\r\n"}.`);
    return { rcpt, data };
  } finally {
    socket.end("QUIT\r\n");
  }
}

export interface CapturedEnvelope {
  mailFrom: string;
  rcptTo: string[];
  data: string;
}

/** A relay stand-in on 127.0.0.1 that takes every message and keeps its envelope and data. */
export class SmtpCapture {
  readonly messages: CapturedEnvelope[] = [];
  private readonly server = net.createServer((socket) => this.session(socket));
  port = 0;

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private session(socket: net.Socket): void {
    let buffer = "";
    let current: CapturedEnvelope = { mailFrom: "", rcptTo: [], data: "" };
    let inData = false;
    socket.write("220 capture ESMTP\r\n");
    socket.on("error", () => socket.destroy());
    socket.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("latin1");
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end < 0) return;
          current.data = buffer.slice(0, end + 2);
          buffer = buffer.slice(end + 5);
          inData = false;
          this.messages.push(current);
          current = { mailFrom: "", rcptTo: [], data: "" };
          socket.write("250 2.0.0 taken\r\n");
          continue;
        }
        const end = buffer.indexOf("\r\n");
        if (end < 0) return;
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO" || verb === "HELO") socket.write("250-capture\r\n250 SIZE 52428800\r\n");
        else if (verb === "MAIL") {
          current = { mailFrom: /<([^>]*)>/.exec(line)?.[1] ?? "", rcptTo: [], data: "" };
          socket.write("250 2.1.0 ok\r\n");
        } else if (verb === "RCPT") {
          current.rcptTo.push(/<([^>]*)>/.exec(line)?.[1] ?? "");
          socket.write("250 2.1.5 ok\r\n");
        } else if (verb === "DATA") {
          inData = true;
          socket.write("354 go on\r\n");
        } else if (verb === "QUIT") socket.end("221 bye\r\n");
        else socket.write("250 ok\r\n");
      }
    });
  }
}
