/**
 * A float weight's text in the sidecar: the original's, which is Erlang's shortest round-trip
 * float text (`float_to_binary(F, [short])`), so a sidecar of float weights is byte-identical to
 * the original's. JavaScript finds the same shortest digits (`toExponential()` with no argument
 * gives the shortest string that reads back to the same double) but places the point its own way
 * (`0.00001` is `1e-5` to it and `1.0e-5` to Erlang), so the placement is the original's rule,
 * written out below. Only the unhashed sidecar carries floats: hashed bytes hold integers only.
 *
 * Limit: JavaScript has one number type, so a weight whose value is integral (`2.0`) is an
 * integer here and is written `2`; only a non-integral value or negative zero is a float.
 */

/** The original's float text of a finite `value`. The caller has checked it is finite. */
export function erlangFloatText(value: number): string {
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const sign = value < 0 ? '-' : '';
  // "d.ddde±x": the shortest digits, the first before the point, and the power of ten of that digit.
  const [mantissa = '', power = '0'] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '').replace(/0+$/, '') || '0';
  const length = digits.length;
  // value = digits × 10^exponent.
  const exponent = Number(power) - (length - 1);
  return sign + (plain(digits, exponent) ? plainText(digits, exponent) : exponentText(digits, exponent));
}

// The mantissas past which the original takes an exponent even where plain notation would fit:
// 2^53, 2^52 div 5 and 2^51 div 25, for exponents 0, 1 and 2.
const LARGE_MANTISSA = [2n ** 53n, 2n ** 52n / 5n, 2n ** 51n / 25n] as const;

function plain(digits: string, exponent: number): boolean {
  const length = digits.length;
  if (length === 1 && exponent >= -4 && exponent <= 2) return true;
  const upper = exponent + length - 1 >= 10 ? 2 : 1;
  if (exponent < -(length + 2) || exponent > upper) return false;
  if (exponent >= 0) {
    const mantissa = BigInt(digits);
    const limit = LARGE_MANTISSA[exponent]!;
    if (exponent === 0 ? mantissa >= limit : mantissa > limit) return false;
  }
  return true;
}

function plainText(digits: string, exponent: number): string {
  if (exponent >= 0) return `${digits}${'0'.repeat(exponent)}.0`;
  const point = digits.length + exponent;
  if (point > 0) return `${digits.slice(0, point)}.${digits.slice(point)}`;
  return `0.${'0'.repeat(-point)}${digits}`;
}

function exponentText(digits: string, exponent: number): string {
  return `${digits[0]}.${digits.slice(1) || '0'}e${exponent + digits.length - 1}`;
}
