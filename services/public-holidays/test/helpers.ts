import type { StartedService, TestSubscriber } from "@apiplat/testing";

export interface Caller {
  started: StartedService;
  app: StartedService["app"];
  platform: StartedService["platform"];
  headers: Record<string, string>;
  /** GET with the subscriber's gateway headers; returns status, headers and parsed JSON body. */
  get(url: string, extraHeaders?: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: any }>;
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
    async get(url, extraHeaders = {}) {
      const response = await started.app.inject({ method: "GET", url, headers: { ...headers, ...extraHeaders } });
      return {
        status: response.statusCode,
        headers: response.headers,
        body: response.body.length > 0 ? response.json() : undefined,
      };
    },
    close: () => started.close(),
  };
}

/** The fields hand-checked against official calendars. */
export function brief(holidays: Array<Record<string, any>>) {
  return holidays.map(({ date, name, local_name, substitute }) => ({ date, name, local_name, substitute }));
}
