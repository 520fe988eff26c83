/** "YYYY-MM" of the UTC month containing `at`. */
export function monthOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** Seconds from `at` until the next UTC month begins (when monthly quotas reset). */
export function secondsUntilMonthEnds(at: Date): number {
  const next = Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - at.getTime()) / 1000));
}

/** monthOf and secondsUntilMonthEnds, computed once per second: they sit on every request's path. */
export class MonthCalendar {
  private second = -1;
  private month = "";
  private monthEnd = 0;

  at(now: Date): { month: string; resetSeconds: number } {
    const ms = now.getTime();
    const second = Math.floor(ms / 1000);
    if (second !== this.second) {
      this.second = second;
      this.month = monthOf(now);
      this.monthEnd = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    }
    return { month: this.month, resetSeconds: Math.max(1, Math.ceil((this.monthEnd - ms) / 1000)) };
  }
}
