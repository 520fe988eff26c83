import pg from "pg";

/**
 * One PostgreSQL connection of its own, outside any pool, for what lives in a session: advisory locks and LISTEN.
 * Both end with the session, which is the point: a process that dies loses its locks when PostgreSQL notices the
 * connection is gone. A killed process's kernel closes the socket, so that is at once; a host or network that vanishes
 * without a word is found by TCP keepalives, which are set here to seconds on both ends (PostgreSQL's default is
 * two hours): idle `SESSION_KEEPALIVE.idleSeconds`, then `countProbes` probes `intervalSeconds` apart.
 */
export const SESSION_KEEPALIVE = { idleSeconds: 5, intervalSeconds: 2, countProbes: 3 } as const;

/** How long at most PostgreSQL takes to notice a silent peer and end its session (and so release its locks). */
export const SESSION_LOSS_DETECTION_SECONDS = SESSION_KEEPALIVE.idleSeconds + SESSION_KEEPALIVE.intervalSeconds * SESSION_KEEPALIVE.countProbes;

export interface DatabaseSession {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Called with each NOTIFY payload on `channel` (after `LISTEN` through `query`). */
  onNotification(listener: (channel: string, payload: string) => void): void;
  /** Called once when the connection is lost (its locks and LISTENs are gone with it). */
  onLost(listener: (error: Error) => void): void;
  close(): Promise<void>;
}

export async function openSession(url: string): Promise<DatabaseSession> {
  const { idleSeconds, intervalSeconds, countProbes } = SESSION_KEEPALIVE;
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: 5_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: idleSeconds * 1000,
    // The server's side of the same keepalives: it is the server that releases a lost session's locks.
    options: `-c tcp_keepalives_idle=${idleSeconds} -c tcp_keepalives_interval=${intervalSeconds} -c tcp_keepalives_count=${countProbes}`,
  });
  const lostListeners: ((error: Error) => void)[] = [];
  let lost = false;
  const loseWith = (error: Error) => {
    if (lost) return;
    lost = true;
    for (const listener of lostListeners) listener(error);
  };
  client.on("error", loseWith);
  client.on("end", () => loseWith(new Error("the session's connection ended")));
  await client.connect();
  return {
    async query<Row>(sql: string, params?: unknown[]) {
      return (await client.query(sql, params as unknown[] | undefined)).rows as Row[];
    },
    onNotification(listener) {
      client.on("notification", (message) => listener(message.channel, message.payload ?? ""));
    },
    onLost(listener) {
      if (lost) listener(new Error("the session's connection ended"));
      else lostListeners.push(listener);
    },
    async close() {
      lost = true;
      await client.end().catch(() => {});
    },
  };
}
