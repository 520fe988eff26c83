import { describe, expect, it } from "vitest";
import { seededRandom } from "@apiplat/testing";
import { SphereKdTree, greatCircleKm } from "../../src/domain/kd-tree.js";

describe("SphereKdTree", () => {
  it("finds the same nearest point as a brute-force great-circle search", () => {
    const random = seededRandom(42);
    const latitudes = Array.from({ length: 3000 }, () => Math.asin(2 * random() - 1) * (180 / Math.PI));
    const longitudes = Array.from({ length: 3000 }, () => random() * 360 - 180);
    const tree = new SphereKdTree(latitudes, longitudes);
    for (let query = 0; query < 500; query++) {
      const lat = random() * 180 - 90;
      const lon = random() * 360 - 180;
      let bestIndex = -1;
      let bestKm = Infinity;
      latitudes.forEach((pointLat, index) => {
        const km = greatCircleKm(lat, lon, pointLat, longitudes[index]);
        if (km < bestKm) {
          bestKm = km;
          bestIndex = index;
        }
      });
      const hit = tree.nearest(lat, lon)!;
      expect(hit.index).toBe(bestIndex);
      expect(hit.distanceKm).toBeCloseTo(bestKm, 6);
    }
  });

  it("sees across the antimeridian and over the poles", () => {
    const tree = new SphereKdTree([0, 0, 89.9, -89.9], [179.9, 0, -170, 100]);
    expect(tree.nearest(0, -179.9)).toEqual({ index: 0, distanceKm: expect.closeTo(22.239, 3) });
    expect(tree.nearest(89.95, 10)!.index).toBe(2);
    expect(tree.nearest(-90, -80)!.index).toBe(3);
    expect(tree.nearest(-90, -80)!.distanceKm).toBeCloseTo(11.12, 2);
  });

  it("answers nothing when empty", () => {
    expect(new SphereKdTree([], []).nearest(0, 0)).toBeUndefined();
  });
});
