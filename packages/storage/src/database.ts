export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number;
}

/** What SQL code needs from PostgreSQL. */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<Row>>;
  /** Runs one or more statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: "postgres";
  /** The schema a service's view of the database works in (see scopeToSchema); unset: the connection's own path. */
  readonly schema?: string;
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * The same database with search_path `schemas` (lower-case names: others are refused), a statement still one round
   * trip; closed with this Database.
   */
  withSearchPath(schemas: readonly string[]): Database;
}

/** PostgreSQL type ids parsed by the platform's own rules. */
export const INT8_OID = 20;
