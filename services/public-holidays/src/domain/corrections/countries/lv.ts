import type { Correction } from "../types.js";

export const LV: Correction[] = [];
