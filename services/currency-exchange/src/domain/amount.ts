export const AMOUNT_MAX_INTEGER_DIGITS = 18;
export const AMOUNT_MAX_FRACTION_DIGITS = 12;

/** Why an amount is refused, or null when it is a plain non-negative decimal within the documented bounds. */
export function amountIssue(raw: string): string | null {
  const text = raw.trim();
  if (text.startsWith("-")) return "must not be negative";
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return "must be a plain decimal number such as 1234.56 (no sign, exponent or thousands separator)";
  const integerDigits = match[1].replace(/^0+(?=\d)/, "").length;
  if (integerDigits > AMOUNT_MAX_INTEGER_DIGITS) return `must have at most ${AMOUNT_MAX_INTEGER_DIGITS} digits before the decimal point`;
  if ((match[2] ?? "").length > AMOUNT_MAX_FRACTION_DIGITS) return `must have at most ${AMOUNT_MAX_FRACTION_DIGITS} digits after the decimal point`;
  return null;
}
