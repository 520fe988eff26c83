import type { Env } from "@apiplat/config";

export interface PublicHolidaysSettings {
  /** Compute (or load from the store) this year and next for every country right after start: PUBLIC_HOLIDAYS_WARM_UP, on unless "false". */
  warmUp: boolean;
}

export function readSettings(env: Env): PublicHolidaysSettings {
  return { warmUp: env.PUBLIC_HOLIDAYS_WARM_UP !== "false" };
}
