/**
 * The per-route latency histogram of /metrics, kept in plain counters. prom-client's Histogram joins the label values
 * into a key on every observation, even through a cached child (2 to 3 µs a request in a CPU profile of the platform,
 * a tenth of its whole cost); here a request adds to one series' arrays, and the Prometheus text is built only when
 * /metrics is scraped. It registers in a prom-client Registry like any other metric.
 */
interface Series {
  labels: Record<string, string | number>;
  /** Observations per bucket, not cumulative: counts[i] holds values <= bounds[i] and > bounds[i - 1]; the last is +Inf. */
  counts: number[];
  sum: number;
  count: number;
}

export class LatencyHistogram {
  readonly type = "histogram";
  readonly aggregator = "sum";
  private readonly series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
  ) {}

  observe(method: string, route: string, statusCode: number, seconds: number): void {
    const key = `${method} ${route} ${statusCode}`;
    let series = this.series.get(key);
    if (!series) {
      series = { labels: { method, route, status_code: statusCode }, counts: new Array(this.bounds.length + 1).fill(0), sum: 0, count: 0 };
      this.series.set(key, series);
    }
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > this.bounds[bucket]) bucket++;
    series.counts[bucket]++;
    series.sum += seconds;
    series.count++;
  }

  /** What prom-client's Registry renders: cumulative buckets, sum and count of every series. */
  get() {
    const values: Array<{ metricName: string; labels: Record<string, string | number>; value: number }> = [];
    for (const series of this.series.values()) {
      let cumulative = 0;
      this.bounds.forEach((bound, i) => {
        cumulative += series.counts[i];
        values.push({ metricName: `${this.name}_bucket`, labels: { ...series.labels, le: bound }, value: cumulative });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { ...series.labels, le: "+Inf" }, value: series.count });
      values.push({ metricName: `${this.name}_sum`, labels: series.labels, value: series.sum });
      values.push({ metricName: `${this.name}_count`, labels: series.labels, value: series.count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.series.clear();
  }
}
