import { Gazetteer } from "./gazetteer.js";
import { PlaceSearch } from "./search.js";
import type { GazetteerSource } from "./types.js";

export interface GeocodingIndex {
  gazetteer: Gazetteer;
  search: PlaceSearch;
  buildMs: number;
  /** "files-in-child-process": a child built the snapshot from the files, this process read it */
  builtFrom: "files" | "files-in-child-process" | "snapshot";
}

export function buildGeocodingIndex(source: GazetteerSource): GeocodingIndex {
  const started = performance.now();
  const gazetteer = Gazetteer.build(source);
  return { gazetteer, search: new PlaceSearch(gazetteer), buildMs: performance.now() - started, builtFrom: "files" };
}
