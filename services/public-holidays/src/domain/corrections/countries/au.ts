import type { Correction } from "../types.js";

export const AU: Correction[] = [];
