/**
 * A small builder for the catalogue's parameterized WHERE clauses: filters add conditions, values become $n
 * parameters, never text in the SQL.
 */
import { errors } from "@apiplat/errors";

export class SqlFilter {
  readonly params: unknown[] = [];
  private readonly conditions: string[] = [];

  /** Adds a value as the next parameter and returns its placeholder ($n). */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** Adds a condition; `build` receives a function turning values into placeholders. */
  where(condition: string | ((p: (value: unknown) => string) => string)): this {
    this.conditions.push(typeof condition === "string" ? condition : condition((v) => this.param(v)));
    return this;
  }

  /** column = value when the value is given. */
  equals(column: string, value: unknown): this {
    if (value !== undefined && value !== null && value !== "") this.where((p) => `${column} = ${p(value)}`);
    return this;
  }

  /** column IN (values) when any is given (a comma-separated list is split). */
  oneOf(column: string, values: string | readonly string[] | undefined): this {
    const list = typeof values === "string" ? splitList(values) : (values ?? []);
    if (list.length > 0) this.where((p) => `${column} = ANY(${p(list)}::text[])`);
    return this;
  }

  /** A date range over a timestamptz column: from inclusive, to inclusive (a bare date includes its whole day). */
  dateRange(column: string, range: DateRange): this {
    if (range.from) this.where((p) => `${column} >= ${p(range.from)}`);
    if (range.to) this.where((p) => `${column} < ${p(range.to)}`);
    return this;
  }

  atLeast(column: string, value: number | undefined): this {
    if (value !== undefined) this.where((p) => `${column} >= ${p(value)}`);
    return this;
  }

  get sql(): string {
    return this.conditions.length ? `WHERE ${this.conditions.join(" AND ")}` : "";
  }

  /** The same conditions with one left out (facet counts ignore their own facet's filter). */
  clone(): SqlFilter {
    const copy = new SqlFilter();
    copy.params.push(...this.params);
    copy.conditions.push(...this.conditions);
    return copy;
  }
}

export function splitList(value: string): string[] {
  return value
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

export interface DateRange {
  /** Inclusive lower bound. */
  from?: Date;
  /** Exclusive upper bound (the day after a bare `to` date). */
  to?: Date;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?$/;

/** Reads `from`/`to` query values (YYYY-MM-DD or ISO 8601 date-time); 400 naming the field otherwise. */
export function parseDateRange(fields: { from?: [string, string | undefined]; to?: [string, string | undefined] }): DateRange {
  const range: DateRange = {};
  if (fields.from?.[1] !== undefined) range.from = parseInstant(fields.from[0], fields.from[1], false);
  if (fields.to?.[1] !== undefined) range.to = parseInstant(fields.to[0], fields.to[1], true);
  if (range.from && range.to && range.from >= range.to) {
    throw errors.validation(fields.to![0], `must be after ${fields.from![0]}`);
  }
  return range;
}

function parseInstant(field: string, value: string, endOfDay: boolean): Date {
  const valid = DATE_ONLY.test(value) || DATE_TIME.test(value);
  const date = new Date(DATE_ONLY.test(value) ? `${value}T00:00:00Z` : value);
  if (!valid || Number.isNaN(date.getTime())) {
    throw errors.validation(field, "must be a date (YYYY-MM-DD) or an ISO 8601 date-time such as 2022-09-23T10:00:00Z");
  }
  if (endOfDay && DATE_ONLY.test(value)) return new Date(date.getTime() + 86_400_000);
  return endOfDay ? new Date(date.getTime() + 1) : date;
}
