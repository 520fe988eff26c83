import type { Correction } from "../types.js";

export const PR: Correction[] = [];
