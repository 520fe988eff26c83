/** Runs autocannon over named scenarios (each a list of GET paths taken in turn) and summarizes each. */
import autocannon from "autocannon";

export interface Scenario {
  name: string;
  paths: string[];
  /** Sent with every request of this scenario, on top of the run's. */
  headers?: Record<string, string>;
  /**
   * Each path sent once across all connections, in turn (autocannon otherwise walks the list on every connection,
   * so each path would go out once per connection).
   */
  fresh?: boolean;
}

/** One request whose path is the next of `paths` for whichever connection asks. */
function sharedTurns(paths: string[]) {
  let next = 0;
  return [{ method: "GET" as const, setupRequest: (request: { path?: string }) => ({ ...request, path: paths[next++ % paths.length] }) }];
}

export async function runScenarios(
  baseUrl: string,
  headers: Record<string, string>,
  scenarios: Scenario[],
  options: { connections: number; seconds: number },
): Promise<Record<string, unknown>[]> {
  const results: Record<string, unknown>[] = [];
  for (const scenario of scenarios) {
    const result = await autocannon({
      url: baseUrl,
      connections: options.connections,
      duration: options.seconds,
      // A worker thread cannot be handed a function: the shared turns run in this thread.
      ...(scenario.fresh ? {} : { workers: 1 }),
      headers: { ...headers, ...scenario.headers },
      requests: scenario.fresh ? sharedTurns(scenario.paths) : scenario.paths.map((path) => ({ method: "GET", path })),
    });
    results.push({
      scenario: scenario.name,
      requests_per_second: Math.round(result.requests.average),
      latency_ms: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
      bytes_per_response: Math.round(result.throughput.total / Math.max(1, result.requests.total)),
      total: result.requests.total,
      non_2xx: result.non2xx,
      errors: result.errors,
    });
  }
  return results;
}
