/** Cutting a tokenized text at a model's limit. */

/**
 * A tokenized sequence cut to `max` tokens the way sentence-transformers cuts it: the head of the text, and the
 * closing special token ([SEP], </s>) kept at the end.
 */
export function cutKeepingLast<T extends BigInt64Array | Float32Array | Int32Array>(values: T, max: number): T {
  if (values.length <= max) return values;
  const out = values.slice(0, max) as T;
  out[max - 1] = values[values.length - 1];
  return out;
}
