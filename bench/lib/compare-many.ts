/**
 * Several modes of one bench server, paired in one run: every mode up for the whole run, driven in turn in short runs
 * (see measureInTurn), each mode's overhead reported against the first and against the one before it.
 */
import { measureInTurn, mediansOf, overheadMedian, runOf, type CompareOptions, type Measurement } from "./compare.js";

/** One server of the comparison: `mode` of `script` (the options' serverScript when not given), reported as `label`. */
export interface ModeSpec {
  label: string;
  mode: string;
  script?: string;
}

export async function compareManyModes(options: CompareOptions, specs: ModeSpec[], extraEnv: Record<string, string> = {}): Promise<Measurement[][]> {
  const modes = specs.map((spec) => spec.label);
  Object.assign(process.env, extraEnv);
  const results = await measureInTurn(
    options,
    specs.map((spec) => ({ ...spec, script: spec.script ?? options.serverScript })),
    (measured) => console.table(measured),
  );
  console.log(
    JSON.stringify({
      ...runOf(options, results),
      median: Object.fromEntries(modes.map((mode, index) => [mode, mediansOf(results, index)])),
      overhead: Object.fromEntries(
        modes
          .slice(1)
          .flatMap((mode, i) => [
            [`${mode}_over_${modes[0]}`, overheadMedian(results, 0, i + 1)],
            ...(i > 0 ? [[`${mode}_over_${modes[i]}`, overheadMedian(results, i, i + 1)]] : []),
          ]),
      ),
    }),
  );
  return results;
}
