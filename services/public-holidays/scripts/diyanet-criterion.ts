/**
 * The criterion Türkiye's Presidency of Religious Affairs (Diyanet) computes its Hijri months by: the unified Hijri
 * calendar of the International Hijri Calendar Union Congress (Istanbul, 2016). A month begins on the day after the
 * evening when, somewhere on Earth before 00:00 UTC, the Moon stands at least 5° above the horizon at sunset and at
 * least 8° from the Sun; or, failing that, when the same holds at sunset on land in the Americas after 00:00 UTC and
 * the conjunction came before dawn (fajr) in New Zealand.
 *
 * Astronomy by astronomy-engine (VSOP87 and the Moon's ELP series as its docs state, arcminute accuracy). The Moon's
 * altitude is topocentric, without refraction; the elongation is geocentric; sunset is the Sun's centre at -0.833°.
 * Used to write the table of calculated Eid days (tr-calculated-eids.ts), never at request time.
 */
import * as Astronomy from "astronomy-engine";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MIN_ALTITUDE = 5;
const MIN_ELONGATION = 8;
const SUNSET_ALTITUDE = -0.833;
const FAJR_ALTITUDE = -18;
/** Latitudes searched for the first condition, every half degree (beyond them the Moon at sunset decides nothing). */
const LATITUDES = Array.from({ length: 241 }, (_, i) => -60 + i / 2);
const WELLINGTON = new Astronomy.Observer(-41.29, 174.78, 0);

/**
 * The westernmost mainland coast of the Americas (latitude, longitude), north to south, linearly interpolated between
 * points: the land whose sunset comes last, which is all the second condition needs.
 */
const AMERICAS_WEST_COAST: [number, number][] = [
  [71, -156.8],
  [70, -162],
  [68, -166.2],
  [66, -168],
  [64, -166.2],
  [62, -165.7],
  [60, -164.8],
  [58, -157.5],
  [56, -160.5],
  [55, -163.5],
  [54, -130.5],
  [52, -128],
  [50, -127.9],
  [48, -124.7],
  [46, -124],
  [44, -124.1],
  [42, -124.4],
  [40, -124.4],
  [38, -123],
  [36, -121.9],
  [34, -120.6],
  [32, -117.2],
  [30, -116],
  [28, -114.9],
  [26, -112.2],
  [24, -111.5],
  [22, -109.9],
  [20, -105.7],
  [18, -103],
  [16, -98],
  [14, -92.2],
  [12, -87.7],
  [10, -85.9],
  [8, -83],
  [6, -77.4],
  [4, -77.4],
  [2, -78.8],
  [0, -80.1],
  [-2, -81],
  [-4, -81.3],
  [-6, -81.1],
  [-8, -79.6],
  [-10, -78.2],
  [-12, -77.2],
  [-14, -76.3],
  [-16, -74.9],
  [-18, -71.5],
  [-20, -70.2],
  [-22, -70.2],
  [-24, -70.5],
  [-26, -70.7],
  [-28, -71.2],
  [-30, -71.5],
  [-32, -71.5],
  [-34, -72],
  [-36, -72.8],
  [-38, -73.5],
  [-40, -73.7],
  [-42, -74],
  [-44, -74.5],
  [-46, -75.5],
  [-48, -75.5],
  [-50, -75.4],
  [-52, -74.9],
  [-54, -72],
  [-55, -70],
];

export interface MonthStart {
  /** The month's first day (UTC calendar date). */
  firstDay: string;
  conjunction: string;
  /** Where and when the criterion was first met, and by which condition. */
  seen: { latitude: number; longitude: number; at: string; altitude: number; elongation: number; americasAfterMidnight: boolean };
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const degrees = (radians: number) => (radians * 180) / Math.PI;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** The first day of the Hijri month whose conjunction falls within three days of `near`. */
export function monthStart(near: Date): MonthStart {
  const conjunction = Astronomy.SearchMoonPhase(0, new Date(near.getTime() - 3 * DAY), 6);
  if (!conjunction) throw new Error(`no new moon within three days of ${near.toISOString()}`);
  const conjunctionMs = conjunction.date.getTime();
  for (let evening = Math.floor(conjunctionMs / DAY) * DAY; ; evening += DAY) {
    const midnight = evening + DAY;
    const seen = metBeforeMidnight(conjunctionMs, midnight) ?? metInTheAmericasAfter(conjunctionMs, midnight);
    if (seen) return { firstDay: isoDay(midnight), conjunction: conjunction.date.toISOString(), seen };
  }
}

function moonAt(time: Date, observer: Astronomy.Observer): { altitude: number; elongation: number } {
  const equatorial = Astronomy.Equator(Astronomy.Body.Moon, time, observer, true, true);
  const altitude = Astronomy.Horizon(time, observer, equatorial.ra, equatorial.dec).altitude;
  return { altitude, elongation: Astronomy.AngleFromSun(Astronomy.Body.Moon, time) };
}

const meets = ({ altitude, elongation }: { altitude: number; elongation: number }) => altitude >= MIN_ALTITUDE && elongation >= MIN_ELONGATION;

/**
 * The first condition, where it is likeliest met: at each latitude, the place where the Sun sets at 00:00 UTC (the last
 * sunset of the UTC day, so the oldest Moon; a sunset minutes earlier, eastwards, finds the Moon younger and lower).
 */
function metBeforeMidnight(conjunctionMs: number, midnight: number): MonthStart["seen"] | null {
  const time = new Date(midnight - 1000);
  if (time.getTime() <= conjunctionMs) return null;
  const sun = Astronomy.Equator(Astronomy.Body.Sun, time, new Astronomy.Observer(0, 0, 0), true, true);
  const siderealDegrees = Astronomy.SiderealTime(time) * 15;
  for (const latitude of LATITUDES) {
    const cosHourAngle =
      (Math.sin(radians(SUNSET_ALTITUDE)) - Math.sin(radians(latitude)) * Math.sin(radians(sun.dec))) /
      (Math.cos(radians(latitude)) * Math.cos(radians(sun.dec)));
    if (Math.abs(cosHourAngle) > 1) continue;
    const longitude = normalizeLongitude(degrees(Math.acos(cosHourAngle)) + sun.ra * 15 - siderealDegrees);
    const moon = moonAt(time, new Astronomy.Observer(latitude, longitude, 0));
    if (meets(moon)) return { latitude, longitude: round(longitude), at: time.toISOString(), ...rounded(moon), americasAfterMidnight: false };
  }
  return null;
}

/** The second condition: the conjunction before fajr in New Zealand, and the Moon seen at a later sunset on American land. */
function metInTheAmericasAfter(conjunctionMs: number, midnight: number): MonthStart["seen"] | null {
  const fajr = Astronomy.SearchAltitude(Astronomy.Body.Sun, WELLINGTON, +1, new Date(midnight - 18 * HOUR), 1, FAJR_ALTITUDE);
  if (!fajr || conjunctionMs >= fajr.date.getTime()) return null;
  for (let latitude = 71; latitude >= -55; latitude -= 0.5) {
    const observer = new Astronomy.Observer(latitude, westCoastAt(latitude), 0);
    const sunset = Astronomy.SearchRiseSet(Astronomy.Body.Sun, observer, -1, new Date(midnight), 0.5);
    if (!sunset) continue;
    const moon = moonAt(sunset.date, observer);
    if (meets(moon)) return { latitude, longitude: observer.longitude, at: sunset.date.toISOString(), ...rounded(moon), americasAfterMidnight: true };
  }
  return null;
}

function westCoastAt(latitude: number): number {
  for (let i = 1; i < AMERICAS_WEST_COAST.length; i++) {
    const [northLat, northLon] = AMERICAS_WEST_COAST[i - 1];
    const [southLat, southLon] = AMERICAS_WEST_COAST[i];
    if (latitude <= northLat && latitude >= southLat) return round(northLon + ((northLat - latitude) / (northLat - southLat)) * (southLon - northLon));
  }
  throw new Error(`latitude ${latitude} is off the Americas' coast table`);
}

const normalizeLongitude = (longitude: number) => ((((longitude + 180) % 360) + 360) % 360) - 180;
const round = (value: number) => Math.round(value * 100) / 100;
const rounded = ({ altitude, elongation }: { altitude: number; elongation: number }) => ({ altitude: round(altitude), elongation: round(elongation) });
