/**
 * The computation alone, no HTTP: microseconds per lookup and per conversion, in this process.
 *   bash scripts/pnpm.sh exec tsx bench/time-zone/compute.ts [iterations]
 */
import { loadTimeZones } from "@apiplat/time-zone";

const iterations = Number(process.argv[2] ?? 200_000);
const loadStart = performance.now();
const zones = loadTimeZones(process.env.TIME_ZONE_ZONEINFO_DIR || "/usr/share/zoneinfo");
const loadMs = performance.now() - loadStart;
const now = Math.floor(Date.now() / 1000);
const far = Date.UTC(2050, 6, 1) / 1000;
const wall = Date.UTC(2026, 2, 29, 2, 30) / 1000;

function time(label: string, run: (i: number) => void) {
  for (let i = 0; i < 10_000; i++) run(i); // warm-up
  const start = performance.now();
  for (let i = 0; i < iterations; i++) run(i);
  return { case: label, microseconds_per_call: Number((((performance.now() - start) * 1000) / iterations).toFixed(2)) };
}

console.table([
  time("lookup Europe/Berlin now (table)", (i) => zones.lookup("Europe/Berlin", now + i)),
  time("lookup Europe/Berlin 2050 (POSIX footer)", (i) => zones.lookup("Europe/Berlin", far + i)),
  time("lookup Asia/Tokyo now (no DST)", (i) => zones.lookup("Asia/Tokyo", now + i)),
  time("convert Berlin gap -> New York", () => zones.convert(wall, "Europe/Berlin", "America/New_York", "compatible")),
]);
console.log(`tz database ${zones.version}: ${zones.zoneCount} names loaded in ${loadMs.toFixed(0)} ms`);
