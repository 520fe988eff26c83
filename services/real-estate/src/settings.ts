import type { Env } from "@apiplat/config";

export interface RealEstateSettings {
  /** Load the datasets on the first start when the catalogue is empty (REAL_ESTATE_AUTOLOAD=off to skip). */
  autoLoad: boolean;
}

export function readSettings(env: Env): RealEstateSettings {
  return { autoLoad: (env.REAL_ESTATE_AUTOLOAD ?? "on") !== "off" };
}
