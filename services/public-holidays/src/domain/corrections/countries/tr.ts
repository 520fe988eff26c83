import type { Correction } from "../types.js";

export const TR: Correction[] = [];
