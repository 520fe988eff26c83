/** Great-circle distances and the bounding boxes that let an index answer "within r km". */
export const EARTH_RADIUS_KM = 6371.0088;
const RAD = Math.PI / 180;

export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

export interface Box {
  minLat: number;
  maxLat: number;
  minLon: number;
  maxLon: number;
}

/** The smallest latitude/longitude box that holds every point within `radiusKm` of the centre (not across the antimeridian). */
export function boxAround(lat: number, lon: number, radiusKm: number): Box {
  const dLat = radiusKm / (EARTH_RADIUS_KM * RAD);
  const cosLat = Math.cos(Math.min(89, Math.abs(lat) + dLat) * RAD);
  const dLon = Math.min(180, dLat / Math.max(cosLat, 1e-6));
  return { minLat: lat - dLat, maxLat: lat + dLat, minLon: Math.max(-180, lon - dLon), maxLon: Math.min(180, lon + dLon) };
}
