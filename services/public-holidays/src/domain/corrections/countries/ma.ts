import type { Correction } from "../types.js";

export const MA: Correction[] = [];
