/** Reading a service's own settings from the environment, with the same rules and messages everywhere. */
export type Env = Record<string, string | undefined>;

/**
 * An integer of at least `min` (default 0) and, when given, at most `max`; unset or empty gives undefined; anything
 * else stops the start.
 */
export function optionalInteger(env: Env, name: string, min = 0, max = Infinity): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    const bounds = max === Infinity ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new Error(`${name} must be an integer ${bounds}, got "${raw}"`);
  }
  return value;
}

/** optionalInteger with a default. */
export function integerSetting(env: Env, name: string, fallback: number, min = 0, max = Infinity): number {
  return optionalInteger(env, name, min, max) ?? fallback;
}

/** A comma-separated list, trimmed, empty items dropped. */
export function listSetting(raw: string | undefined): string[] {
  return (raw ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}
