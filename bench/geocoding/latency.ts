/**
 * In-process latency of the geocoding engine (no HTTP): /search and /reverse logic on the real
 * gazetteer, over a deterministic mix of queries.
 *   bash scripts/pnpm.sh exec tsx bench/geocoding/latency.ts
 */
import { loadGeocodingIndex } from "@apiplat/geocoding";
import { seededRandom } from "@apiplat/testing";
import { reverseGeocode } from "../../services/geocoding/src/domain/reverse.js";
import type { SearchRequest } from "../../services/geocoding/src/domain/search.js";

const index = loadGeocodingIndex();
const { gazetteer, search } = index;
console.log(`index built in ${index.buildMs} ms: ${gazetteer.count} places, ${gazetteer.nameIndex.keyCount} names`);

const random = seededRandom(7);

function searchMix(count: number): SearchRequest[] {
  const hardPrefixes = ["san", "sant", "par", "lon", "new", "ber", "mos", "sa", "st", "bad"];
  const requests: SearchRequest[] = [];
  for (let i = 0; i < count; i++) {
    const place = Math.floor(random() * gazetteer.count);
    const name = gazetteer.names[place];
    const country = gazetteer.countryName(gazetteer.countryCodes[gazetteer.countryOf[place]], undefined);
    const limit = [10, 10, 10, 100][i % 4];
    switch (i % 5) {
      case 0:
        requests.push({ q: name, limit });
        break;
      case 1:
        requests.push({ q: name.slice(0, 3 + (i % 4)), limit });
        break;
      case 2:
        requests.push({ q: `${name}, ${country}`, limit, language: "de" });
        break;
      case 3:
        requests.push({ q: hardPrefixes[i % hardPrefixes.length], limit });
        break;
      default:
        requests.push({ q: `${hardPrefixes[i % hardPrefixes.length]}, ${country}`, limit });
    }
  }
  return requests.filter((request) => {
    try {
      search.search(request);
      return true;
    } catch {
      return false; // names of one letter before a comma: the API refuses them with a 400
    }
  });
}

function reverseMix(count: number): Array<{ latitude: number; longitude: number }> {
  return Array.from({ length: count }, (_, i) => {
    if (i % 2 === 0) {
      return { latitude: (Math.asin(2 * random() - 1) * 180) / Math.PI, longitude: random() * 360 - 180 };
    }
    const place = Math.floor(random() * gazetteer.count);
    return {
      latitude: Math.max(-90, Math.min(90, gazetteer.latitudes[place] + (random() - 0.5) * 0.2)),
      longitude: ((gazetteer.longitudes[place] + (random() - 0.5) * 0.2 + 540) % 360) - 180,
    };
  });
}

function measure<T>(name: string, inputs: T[], run: (input: T) => unknown): void {
  for (const input of inputs.slice(0, 2000)) run(input); // warm-up
  const timings = new Float64Array(inputs.length);
  const started = performance.now();
  inputs.forEach((input, i) => {
    const t0 = performance.now();
    run(input);
    timings[i] = performance.now() - t0;
  });
  const total = performance.now() - started;
  timings.sort();
  const at = (q: number) => timings[Math.min(timings.length - 1, Math.floor(q * timings.length))].toFixed(3);
  console.log(
    `${name}: ${inputs.length} calls, ${Math.round((inputs.length / total) * 1000)} calls/s on one thread, ` +
      `p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, p99 ${at(0.99)} ms, max ${timings[timings.length - 1].toFixed(3)} ms`,
  );
}

measure("search", searchMix(20_000), (request) => search.search(request));
measure("reverse", reverseMix(20_000), (point) => reverseGeocode(gazetteer, { ...point, maxDistanceKm: 50 }));
