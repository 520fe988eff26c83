import { call, UnknownData, type StartedService, type TestSubscriber, type TypedAnswer } from "@apiplat/testing";
import type { Static } from "typebox";
import * as S from "../src/schemas.js";

/** Each route's data schema, so that a GET's answer is typed from its URL's path. */
interface Routes {
  "/holidays": typeof S.HolidaysData;
  "/next": typeof S.NextData;
  "/is-holiday": typeof S.IsHolidayData;
  "/countries": typeof S.CountriesData;
}
type DataOfPath<Path> = Path extends keyof Routes ? Static<Routes[Path]> : unknown;
export type DataOf<Url extends string> = Url extends `${infer Path}?${string}` ? DataOfPath<Path> : DataOfPath<Url>;
export type Holiday = Static<typeof S.HolidaySchema>;

export interface Caller {
  started: StartedService;
  app: StartedService["app"];
  platform: StartedService["platform"];
  headers: Record<string, string>;
  /** GET with the subscriber's gateway headers; the answer's data typed by the route of the URL. */
  get<Url extends string>(url: Url, extraHeaders?: Record<string, string>): Promise<TypedAnswer<DataOf<Url>>>;
  close(): Promise<void>;
}

/**
 * GETs as a MEGA subscriber of a started service (so bursts of test requests stay under the per-second limit).
 */
export async function megaCaller(started: StartedService): Promise<Caller> {
  const { headers }: TestSubscriber = await started.subscribe("MEGA");
  return {
    started,
    app: started.app,
    platform: started.platform,
    headers,
    // Typed by the URL's route instead of a schema argument: four routes, each test names its URL anyway.
    get: <Url extends string>(url: Url, extraHeaders: Record<string, string> = {}) =>
      call(started, UnknownData, { url, headers: { ...headers, ...extraHeaders } }) as Promise<TypedAnswer<DataOf<Url>>>,
    close: () => started.close(),
  };
}

/** The fields hand-checked against official calendars. */
export function brief(holidays: Array<Pick<Holiday, "date" | "name" | "local_name" | "substitute">>) {
  return holidays.map(({ date, name, local_name, substitute }) => ({ date, name, local_name, substitute }));
}
