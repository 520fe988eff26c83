/** What the main thread and a merge worker send each other (structured-clone safe). */
import type { Plan } from "../domain/limits.js";

export interface MergeTask {
  inputs: Uint8Array[];
  /** Whose merge bound applies. */
  plan: Plan;
}

/** A RenderError does not survive the trip between threads as a class: its fields do. */
interface MergeFailure {
  kind: "page_limit" | "invalid_pdf";
  message: string;
  field?: string;
  issue?: string;
}

export type MergeOutcome = { ok: true; pdf: Uint8Array; pageCount: number } | { ok: false; failure: MergeFailure };
