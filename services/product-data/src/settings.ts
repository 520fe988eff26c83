import type { Env } from "@apiplat/config";

export interface ProductDataSettings {
  /** Load the datasets on the first start when the catalogue is empty (PRODUCT_DATA_AUTOLOAD=off to skip). */
  autoLoad: boolean;
}

export function readSettings(env: Env): ProductDataSettings {
  return { autoLoad: (env.PRODUCT_DATA_AUTOLOAD ?? "on") !== "off" };
}
