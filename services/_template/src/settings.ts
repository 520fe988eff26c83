import { integerSetting, type Env } from "@apiplat/config";

export interface TemplateSettings {
  /** How many notes one account may keep. */
  maxNotesPerAccount: number;
}

/** The service's own settings, read once from the environment with the shared helpers (bad values stop the start). */
export function readSettings(env: Env): TemplateSettings {
  return { maxNotesPerAccount: integerSetting(env, "TEMPLATE_MAX_NOTES", 1_000, 1) };
}
