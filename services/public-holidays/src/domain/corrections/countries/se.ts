import type { Correction } from "../types.js";

export const SE: Correction[] = [];
