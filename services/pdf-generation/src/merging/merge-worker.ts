/** A merge worker thread: pdf-lib parses and writes whole documents, seconds of CPU for thousands of pages. */
import { Piscina } from "piscina";
import { isRenderError } from "../domain/errors.js";
import { assertWithinMergePageLimit } from "../domain/page-limit.js";
import { mergePdfs } from "../domain/pdf-document.js";
import type { MergeOutcome, MergeTask } from "./protocol.js";

export default async function merge(task: MergeTask): Promise<MergeOutcome> {
  try {
    const { pdf, pageCount } = await mergePdfs(task.inputs, (total) => assertWithinMergePageLimit(total, task.plan));
    const outcome: MergeOutcome = { ok: true, pdf, pageCount };
    // The result's bytes move to the main thread instead of being copied.
    const transferable = {
      get [Piscina.transferableSymbol]() {
        return [pdf.buffer];
      },
      get [Piscina.valueSymbol]() {
        return outcome;
      },
    };
    return Piscina.move(transferable as unknown as Parameters<typeof Piscina.move>[0]) as unknown as MergeOutcome;
  } catch (error) {
    if (isRenderError(error) && (error.kind === "page_limit" || error.kind === "invalid_pdf")) {
      return { ok: false, failure: { kind: error.kind, message: error.message, field: error.field, issue: error.issue } };
    }
    throw error;
  }
}

/** Nothing: running it proves the thread has started and loaded pdf-lib, so that no merge's clock pays for that. */
export function warm(): boolean {
  return true;
}
