import type { Correction } from "../types.js";

export const IM: Correction[] = [];
