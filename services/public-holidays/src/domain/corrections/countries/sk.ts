import type { Correction } from "../types.js";

export const SK: Correction[] = [];
