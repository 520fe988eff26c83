import type { Correction } from "../types.js";

export const RO: Correction[] = [];
