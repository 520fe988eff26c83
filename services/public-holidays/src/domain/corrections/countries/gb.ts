import type { Correction } from "../types.js";

export const GB: Correction[] = [];
