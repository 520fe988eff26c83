import { createRequire } from "node:module";
import type { HolidayEngine } from "../domain/engine.js";
import type { Holiday } from "../domain/types.js";

/** The part of the platform's key-value store the cache uses (Redis, or in-process without REDIS_URL). */
interface TextStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
}

export const CACHE_TTL_SECONDS = 24 * 60 * 60;
const MEMORY_ENTRIES = 512;
/** Bump when this service changes what it computes (record shape or meaning). */
const RECORD_REVISION = 5;
const ENGINE_VERSION: string = createRequire(import.meta.url)("date-holidays/package.json").version;

/**
 * What an answer depends on besides the question: this service's revision and the engine's version (its
 * data). Part of every store key and ETag, so neither serves an answer computed by an older release.
 */
export const DATA_VERSION = `r${RECORD_REVISION}-date-holidays@${ENGINE_VERSION}`;

interface MemoryEntry {
  holidays: Holiday[];
  expiresAt: number;
}

/**
 * A country's year of holidays, computed once and then kept 24 hours: in process (a small LRU, so hot
 * years cost no round trip) and in the shared store (so every instance and restart reuses the work).
 * The store is an optimisation: when it fails, the year is computed and served anyway.
 */
export class HolidayCache {
  private readonly memory = new Map<string, MemoryEntry>();
  private readonly pending = new Map<string, Promise<Holiday[]>>();

  constructor(
    private readonly engine: HolidayEngine,
    private readonly store: TextStore,
    private readonly now: () => Date,
    private readonly onStoreError: (error: unknown) => void,
  ) {}

  async year(countryCode: string, year: number): Promise<Holiday[]> {
    const key = yearKey(countryCode, year);
    const remembered = this.fromMemory(key);
    if (remembered) return remembered;
    let pending = this.pending.get(key);
    if (!pending) {
      pending = this.load(key, countryCode, year).finally(() => this.pending.delete(key));
      this.pending.set(key, pending);
    }
    return pending;
  }

  /**
   * Fills the cache for the given years of every country, one country-year per turn of the event loop so
   * requests keep being served meanwhile. Stops early when `stopped()` turns true (the app is closing).
   */
  async warm(countryCodes: string[], years: number[], stopped: () => boolean): Promise<number> {
    let warmed = 0;
    for (const year of years) {
      for (const countryCode of countryCodes) {
        if (stopped()) return warmed;
        await this.year(countryCode, year);
        warmed++;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    return warmed;
  }

  private async load(key: string, countryCode: string, year: number): Promise<Holiday[]> {
    const stored = await this.readStore(key);
    if (stored) {
      this.remember(key, stored.holidays, stored.expiresAt);
      return stored.holidays;
    }
    const holidays = await this.engine.holidaysOfYear(countryCode, year);
    const expiresAt = this.now().getTime() + CACHE_TTL_SECONDS * 1000;
    this.remember(key, holidays, expiresAt);
    await this.writeStore(key, { holidays, expiresAt });
    return holidays;
  }

  private fromMemory(key: string): Holiday[] | undefined {
    const entry = this.memory.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now().getTime()) {
      this.memory.delete(key);
      return undefined;
    }
    this.memory.delete(key);
    this.memory.set(key, entry);
    return entry.holidays;
  }

  private remember(key: string, holidays: Holiday[], expiresAt: number): void {
    this.memory.set(key, { holidays, expiresAt });
    if (this.memory.size > MEMORY_ENTRIES) this.memory.delete(this.memory.keys().next().value!);
  }

  private async readStore(key: string): Promise<MemoryEntry | null> {
    try {
      const text = await this.store.get(key);
      return text ? (JSON.parse(text) as MemoryEntry) : null;
    } catch (error) {
      this.onStoreError(error);
      return null;
    }
  }

  private async writeStore(key: string, entry: MemoryEntry): Promise<void> {
    try {
      const ttl = Math.max(1, Math.ceil((entry.expiresAt - this.now().getTime()) / 1000));
      await this.store.set(key, JSON.stringify(entry), ttl);
    } catch (error) {
      this.onStoreError(error);
    }
  }
}

/** The store key of a country's year. */
export function yearKey(countryCode: string, year: number): string {
  return `holidays:${DATA_VERSION}:${countryCode}:${year}`;
}
