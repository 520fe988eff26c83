/** The subset of the platform Database that the stores use (structurally the same as @apiplat/storage Queryable). */
export interface Sql {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: Row[]; rowCount: number }>;
}

export interface TransactionalSql extends Sql {
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
}
