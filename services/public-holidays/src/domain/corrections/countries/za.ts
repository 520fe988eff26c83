import type { Correction } from "../types.js";

export const ZA: Correction[] = [];
