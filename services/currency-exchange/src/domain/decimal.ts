import { Decimal } from "decimal.js";

/** Working precision for rebasing: 34 significant digits (IEEE 754 decimal128), far past any published rate. */
export const Dec = Decimal.clone({ precision: 34, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -30, toExpPos: 40 });
export type Dec = InstanceType<typeof Dec>;

/** Exact products of an amount (<= 30 digits) and a rate (<= 12 significant digits). */
const Exact = Decimal.clone({ precision: 80, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -60, toExpPos: 80 });

/** Significant digits of every rate we return; all rounding of returned figures is half away from zero. */
const RATE_SIGNIFICANT_DIGITS = 12;

export function roundRate(rate: Dec): string {
  return rate.toSignificantDigits(RATE_SIGNIFICANT_DIGITS, Decimal.ROUND_HALF_UP).toString();
}

/** amount x rate, rounded half away from zero to `places` decimals, as a plain decimal string. */
export function multiplyRounded(amount: string, rate: string, places: number): string {
  return new Exact(amount).times(new Exact(rate)).toFixed(places, Decimal.ROUND_HALF_UP);
}

export function canonicalAmount(amount: string): string {
  return new Exact(amount).toFixed();
}
