/**
 * What the processes of one catalogue (a service's replicas, the `ingest` command) agree on through PostgreSQL:
 * - one lock per ingestion source (and one for the first load), a session-level advisory lock taken with
 *   `pg_try_advisory_lock` on a connection of its own, so that a round runs in one process at a time and a process
 *   that dies loses its locks with its session (at once when it is killed, within SESSION_LOSS_DETECTION_SECONDS
 *   when its host or network vanishes);
 * - the notice that the catalogue changed (`NOTIFY apiplat_catalogue, '<schema>'` after every finished run), heard on
 *   the same connection, so that every process drops what it keeps of the old catalogue at once.
 * On the embedded database there is one process: the locks are held in memory and no notice is needed.
 */
import { openSession, type Database, type DatabaseSession, type Queryable } from "@apiplat/storage";

export const CATALOGUE_CHANNEL = "apiplat_catalogue";
/** The first argument of every catalogue lock (the second is the schema and the lock's name): apart from other locks. */
const LOCK_CLASS = "apiplat-catalogue";
/** How often a process waiting for a lock asks for it again. */
export const LOCK_RETRY_MS = 1_000;
const RECONNECT_MS = 1_000;

export type Exclusive<T> = { held: true; value: T } | { held: false };

export interface CatalogueCoordination {
  /** Runs `work` holding the lock `name` across every process of this catalogue; `{ held: false }` when another holds it. */
  tryExclusive<T>(name: string, work: () => Promise<T>): Promise<Exclusive<T>>;
  /** Waits for the lock `name` (asking every LOCK_RETRY_MS) and runs `work`; `{ held: false }` when `shouldStop` says so first. */
  exclusive<T>(name: string, work: () => Promise<T>, shouldStop?: () => boolean): Promise<Exclusive<T>>;
  /** `listener` is called when another process announces a change to this catalogue, and when notices may have been missed. */
  onChange(listener: () => void): void;
  close(): Promise<void>;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** PostgreSQL's locks and notices when the catalogue lives there (`databaseUrl` set); locks in memory on the embedded database. */
export function catalogueCoordination(db: Database, databaseUrl: string | undefined, log?: { warn(obj: object, msg: string): void }): CatalogueCoordination {
  const schema = db.schema ?? "public";
  if (db.kind !== "postgres" || !databaseUrl) return inProcessCoordination();
  return sessionCoordination(databaseUrl, schema, log);
}

/** Tells every process of the catalogue in `db` that it changed (a run finished); a lost notice is made up by their version poll. */
export async function announceCatalogueChange(db: Queryable): Promise<void> {
  const schema = (db as Partial<Database>).schema ?? null;
  await db.query(`SELECT pg_notify('${CATALOGUE_CHANNEL}', coalesce($1, current_schema()))`, [schema]).catch(() => {});
}

function inProcessCoordination(): CatalogueCoordination {
  const held = new Set<string>();
  const tryExclusive = async <T>(name: string, work: () => Promise<T>): Promise<Exclusive<T>> => {
    if (held.has(name)) return { held: false };
    held.add(name);
    try {
      return { held: true, value: await work() };
    } finally {
      held.delete(name);
    }
  };
  return {
    tryExclusive,
    exclusive: (name, work, shouldStop) => waitFor(tryExclusive, name, work, shouldStop),
    onChange() {},
    async close() {},
  };
}

async function waitFor<T>(
  tryExclusive: CatalogueCoordination["tryExclusive"],
  name: string,
  work: () => Promise<T>,
  shouldStop?: () => boolean,
): Promise<Exclusive<T>> {
  for (;;) {
    const attempt = await tryExclusive(name, work);
    if (attempt.held || shouldStop?.()) return attempt;
    await pause(LOCK_RETRY_MS);
  }
}

function sessionCoordination(url: string, schema: string, log?: { warn(obj: object, msg: string): void }): CatalogueCoordination {
  const listeners: (() => void)[] = [];
  // Advisory locks stack within a session: the names this process holds are refused here before PostgreSQL is asked.
  const held = new Set<string>();
  let session: Promise<DatabaseSession> | null = null;
  let closed = false;
  let reconnect: NodeJS.Timeout | undefined;
  const changed = () => listeners.forEach((listener) => listener());

  const connect = (): Promise<DatabaseSession> => {
    const opening = openSession(url).then(async (opened) => {
      opened.onNotification((channel, payload) => {
        if (channel === CATALOGUE_CHANNEL && payload === schema) changed();
      });
      opened.onLost((error) => {
        if (closed) return;
        if (session === opening) session = null;
        if (held.size > 0)
          log?.warn({ err: error, held: [...held] }, "catalogue: the lock session was lost while holding locks; another process may take them");
        // Notices may be missed until the session is back: the listeners read the version again.
        changed();
        scheduleReconnect();
      });
      await opened.query(`LISTEN ${CATALOGUE_CHANNEL}`);
      return opened;
    });
    opening.catch(() => {
      if (session === opening) session = null;
      scheduleReconnect();
    });
    session = opening;
    return opening;
  };
  const scheduleReconnect = () => {
    if (closed || reconnect || listeners.length === 0) return;
    reconnect = setTimeout(() => {
      reconnect = undefined;
      if (!session && !closed) connect().catch(() => {});
    }, RECONNECT_MS);
    reconnect.unref();
  };
  const current = () => session ?? connect();

  const tryExclusive = async <T>(name: string, work: () => Promise<T>): Promise<Exclusive<T>> => {
    if (closed || held.has(name)) return { held: false };
    const key = `${schema}/${name}`;
    held.add(name);
    let owner: DatabaseSession;
    try {
      owner = await current();
      const [row] = await owner.query<{ ok: boolean }>("SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS ok", [LOCK_CLASS, key]);
      if (!row.ok) {
        held.delete(name);
        return { held: false };
      }
    } catch (error) {
      held.delete(name);
      log?.warn({ err: error, lock: key }, "catalogue: could not ask PostgreSQL for a lock");
      return { held: false };
    }
    try {
      return { held: true, value: await work() };
    } finally {
      held.delete(name);
      await owner.query("SELECT pg_advisory_unlock(hashtext($1), hashtext($2))", [LOCK_CLASS, key]).catch(() => {});
    }
  };

  return {
    tryExclusive,
    exclusive: (name, work, shouldStop) => waitFor(tryExclusive, name, work, shouldStop),
    onChange(listener) {
      listeners.push(listener);
      current().catch(() => {});
    },
    async close() {
      closed = true;
      clearTimeout(reconnect);
      const open = session;
      session = null;
      await open?.then(
        (s) => s.close(),
        () => {},
      );
    },
  };
}
