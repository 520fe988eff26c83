import { setFlagsFromString } from "node:v8";

/**
 * How V8 runs a service's process: set by runService before the service reads anything, and by the benchmarks'
 * service processes, which must run as a deployed one does. (These flags are not allowed in NODE_OPTIONS, and a
 * command line is not the only way a service is started.)
 *
 * Allocation-site pretenuring is off. V8 counts, at each young collection, how many of the objects made at one place
 * in the code were still in use; past a share, that place's later objects are made directly in the old generation.
 * A service under load has many requests waiting at any moment, so places that make each request's short-lived
 * objects were judged long-lived: search-results' old generation grew by 26 MB/s at 1,400 uncached searches a second
 * (a sampling heap profile of the objects no young collection freed found a search's snippets, results and answer,
 * and the Redis commands that count it), and a full collection, whose marking shares the service's core, came every
 * 12 s. Without pretenuring, 6.4 MB/s, and none in 20 s of the same load.
 */
export function setServiceRuntimeFlags(): void {
  setFlagsFromString("--no-allocation-site-pretenuring");
}
