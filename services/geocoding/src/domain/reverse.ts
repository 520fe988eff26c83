import type { Gazetteer, PlaceRecord } from "./gazetteer.js";

export const DEFAULT_MAX_DISTANCE_KM = 50;
/** Half the Earth's circumference: every point of the sphere is within it. */
export const MAX_MAX_DISTANCE_KM = 20016;

interface ReverseRequest {
  latitude: number;
  longitude: number;
  maxDistanceKm: number;
  language?: string;
}

interface ReverseOutcome {
  latitude: number;
  longitude: number;
  /** false when the nearest place is farther than max_distance_km: open sea, ice, desert */
  within_max_distance: boolean;
  locality: string | null;
  admin1: string | null;
  country: string | null;
  country_code: string | null;
  timezone: string | null;
  distance_km: number;
  max_distance_km: number;
  nearest_place: PlaceRecord & { distance_km: number };
}

/**
 * The nearest locality by great-circle distance. Beyond max_distance_km the
 * locality, region, country and time zone are null rather than borrowed from a
 * place far away; nearest_place still says what the closest place is and how far.
 */
export function reverseGeocode(gazetteer: Gazetteer, request: ReverseRequest): ReverseOutcome {
  const hit = gazetteer.nearestLocality(request.latitude, request.longitude);
  if (hit === undefined) throw new Error("the gazetteer holds no place");
  const place = gazetteer.describe(hit.index, request.language);
  const distanceKm = roundKm(hit.distanceKm);
  const near = hit.distanceKm <= request.maxDistanceKm;
  return {
    latitude: request.latitude,
    longitude: request.longitude,
    within_max_distance: near,
    locality: near ? place.name : null,
    admin1: near ? place.admin1 : null,
    country: near ? place.country : null,
    country_code: near ? place.country_code : null,
    timezone: near ? place.timezone : null,
    distance_km: distanceKm,
    max_distance_km: request.maxDistanceKm,
    nearest_place: { ...place, distance_km: distanceKm },
  };
}

function roundKm(km: number): number {
  return Math.round(km * 1000) / 1000;
}
