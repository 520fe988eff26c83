/**
 * The preamble most test files open with, in one call: start the service before the file's tests, subscribe one caller
 * (on PRO unless said), close the service after them. Apart from the package's index because it imports vitest (as
 * auth-suite.ts).
 */
import { afterAll, beforeAll } from "vitest";
import type { PlanName } from "@apiplat/config";
import type { StartedService } from "./start-service.js";
import type { TestSubscriber } from "./test-platform.js";

export interface ServiceUnderTest<Started extends StartedService = StartedService> {
  /** The started service (read once the file's beforeAll has run). */
  readonly started: Started;
  /** A subscriber on the file's plan (PRO unless said), with its key's gateway headers. */
  readonly caller: TestSubscriber;
}

/** Registers the file's beforeAll (start, then subscribe a caller on `plan`) and afterAll (close). */
export function serviceUnderTest<Started extends StartedService>(start: () => Promise<Started>, plan: PlanName = "PRO"): ServiceUnderTest<Started> {
  let started: Started | undefined;
  let caller: TestSubscriber | undefined;
  beforeAll(async () => {
    started = await start();
    caller = await started.subscribe(plan);
  });
  afterAll(() => started?.close());
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the service under test is read before its beforeAll has run");
    return value;
  };
  return {
    get started() {
      return ready(started);
    },
    get caller() {
      return ready(caller);
    },
  };
}
