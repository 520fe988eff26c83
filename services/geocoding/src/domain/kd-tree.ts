export const EARTH_RADIUS_KM = 6371.0088;

interface NearestHit {
  /** index of the point in the array given to the constructor */
  index: number;
  /** great-circle distance in kilometres */
  distanceKm: number;
}

/**
 * A static k-d tree over points of the sphere stored as 3D unit vectors.
 * Straight-line (chord) distance between unit vectors grows monotonically with
 * the great-circle distance, so the nearest by chord is the nearest on the sphere,
 * and there is no seam at the antimeridian nor a singularity at the poles.
 */
export interface KdTreeParts {
  xyz: Float64Array;
  /** node order: the point at the middle of each range splits it on `axes[mid]` */
  order: Int32Array;
  axes: Uint8Array;
}

export class SphereKdTree {
  private readonly xyz: Float64Array;
  private readonly order: Int32Array;
  private readonly axes: Uint8Array;

  constructor(latitudes: ArrayLike<number>, longitudes: ArrayLike<number>);
  constructor(parts: KdTreeParts);
  constructor(latitudesOrParts: ArrayLike<number> | KdTreeParts, longitudes?: ArrayLike<number>) {
    if ("xyz" in latitudesOrParts) {
      ({ xyz: this.xyz, order: this.order, axes: this.axes } = latitudesOrParts);
      return;
    }
    const latitudes = latitudesOrParts;
    const count = latitudes.length;
    this.xyz = new Float64Array(count * 3);
    for (let index = 0; index < count; index++) {
      writeUnitVector(latitudes[index], longitudes![index], this.xyz, index * 3);
    }
    this.order = new Int32Array(count);
    for (let index = 0; index < count; index++) this.order[index] = index;
    this.axes = new Uint8Array(count);
    this.build(0, count);
  }

  parts(): KdTreeParts {
    return { xyz: this.xyz, order: this.order, axes: this.axes };
  }

  get size(): number {
    return this.order.length;
  }

  nearest(latitude: number, longitude: number): NearestHit | undefined {
    if (this.order.length === 0) return undefined;
    const target = new Float64Array(3);
    writeUnitVector(latitude, longitude, target, 0);
    const best = { slot: -1, squared: Infinity };
    this.search(0, this.order.length, target, best);
    const chord = Math.sqrt(best.squared);
    return { index: this.order[best.slot], distanceKm: chordToKm(chord) };
  }

  private build(start: number, end: number): void {
    // An explicit stack keeps deep recursion off the call stack for 200k points.
    const stack: number[] = [start, end];
    while (stack.length > 0) {
      const rangeEnd = stack.pop()!;
      const rangeStart = stack.pop()!;
      if (rangeEnd - rangeStart <= 1) continue;
      const axis = this.widestAxis(rangeStart, rangeEnd);
      const middle = (rangeStart + rangeEnd) >> 1;
      this.select(rangeStart, rangeEnd - 1, middle, axis);
      this.axes[middle] = axis;
      stack.push(rangeStart, middle, middle + 1, rangeEnd);
    }
  }

  private widestAxis(start: number, end: number): number {
    let widest = 0;
    let widestSpread = -1;
    for (let axis = 0; axis < 3; axis++) {
      let low = Infinity;
      let high = -Infinity;
      for (let slot = start; slot < end; slot++) {
        const value = this.xyz[this.order[slot] * 3 + axis];
        if (value < low) low = value;
        if (value > high) high = value;
      }
      if (high - low > widestSpread) {
        widestSpread = high - low;
        widest = axis;
      }
    }
    return widest;
  }

  /** Floyd-Rivest style quickselect: afterwards order[k] holds the k-th smallest on `axis`. */
  private select(left: number, right: number, k: number, axis: number): void {
    const { order, xyz } = this;
    const coordinate = (slot: number) => xyz[order[slot] * 3 + axis];
    const swap = (a: number, b: number) => {
      const held = order[a];
      order[a] = order[b];
      order[b] = held;
    };
    while (right > left) {
      const pivot = coordinate(k);
      let i = left;
      let j = right;
      swap(left, k);
      if (coordinate(right) > pivot) swap(left, right);
      while (i < j) {
        swap(i, j);
        i++;
        j--;
        while (coordinate(i) < pivot) i++;
        while (coordinate(j) > pivot) j--;
      }
      if (coordinate(left) === pivot) swap(left, j);
      else {
        j++;
        swap(j, right);
      }
      if (j <= k) left = j + 1;
      if (k <= j) right = j - 1;
    }
  }

  private search(start: number, end: number, target: Float64Array, best: { slot: number; squared: number }): void {
    if (end <= start) return;
    const middle = (start + end) >> 1;
    const offset = this.order[middle] * 3;
    const dx = this.xyz[offset] - target[0];
    const dy = this.xyz[offset + 1] - target[1];
    const dz = this.xyz[offset + 2] - target[2];
    const squared = dx * dx + dy * dy + dz * dz;
    if (squared < best.squared || (squared === best.squared && this.order[middle] < this.order[best.slot])) {
      best.squared = squared;
      best.slot = middle;
    }
    if (end - start === 1) return;
    const axis = this.axes[middle];
    const split = target[axis] - this.xyz[offset + axis];
    const [nearStart, nearEnd, farStart, farEnd] = split < 0 ? [start, middle, middle + 1, end] : [middle + 1, end, start, middle];
    this.search(nearStart, nearEnd, target, best);
    if (split * split <= best.squared) this.search(farStart, farEnd, target, best);
  }
}

function writeUnitVector(latitude: number, longitude: number, into: Float64Array, offset: number): void {
  const phi = (latitude * Math.PI) / 180;
  const lambda = (longitude * Math.PI) / 180;
  const cosPhi = Math.cos(phi);
  into[offset] = cosPhi * Math.cos(lambda);
  into[offset + 1] = cosPhi * Math.sin(lambda);
  into[offset + 2] = Math.sin(phi);
}

function chordToKm(chord: number): number {
  return 2 * Math.asin(Math.min(1, chord / 2)) * EARTH_RADIUS_KM;
}

/** Haversine great-circle distance, used to cross-check the tree. */
export function greatCircleKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const toRad = Math.PI / 180;
  const dPhi = (lat2 - lat1) * toRad;
  const dLambda = (lon2 - lon1) * toRad;
  const a = Math.sin(dPhi / 2) ** 2 + Math.cos(lat1 * toRad) * Math.cos(lat2 * toRad) * Math.sin(dLambda / 2) ** 2;
  return 2 * Math.asin(Math.min(1, Math.sqrt(a))) * EARTH_RADIUS_KM;
}
