/**
 * A page of a listing read with one row more than `limit` (the extra row says another page follows): the rows to
 * answer with, and the next page's cursor, made from the page's last row, or null on the last page.
 */
export function cursorPage<Row>(rows: readonly Row[], limit: number, cursorAfter: (last: Row) => string): { page: Row[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last !== undefined ? cursorAfter(last) : null };
}
