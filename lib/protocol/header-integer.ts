const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d{1,6}))?$/;
/** Safe integers have at most 16 decimal digits. */
const SAFE_DIGITS = 16;
const ZERO = 0x30;

/**
 * Whether a mirrored header's decimal text equals a safe integer exactly (`42`, `42.0`, `4.2e1`, `-0` for `0`), in
 * integer arithmetic, so no rounding can make `42.0000000000000001` equal `42`. Linear in the text's length
 * (a header may hold many thousand digits).
 */
export function headerIntegerEquals(text: string, integer: number): boolean {
  const match = DECIMAL.exec(text);
  if (!match) return false;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  const spelled = `${whole}${fraction}`;
  let first = 0;
  while (spelled.charCodeAt(first) === ZERO) first++;
  if (first === spelled.length) return integer === 0;
  // Trailing zeros counted by a loop: a regex like /0+$/ retries every run of zeros, quadratic on "1000…0001".
  let end = spelled.length;
  while (spelled.charCodeAt(end - 1) === ZERO) end--;
  const scale = Number(exponent) - fraction.length + (spelled.length - end);
  if (scale < 0 || end - first + scale > SAFE_DIGITS) return false;
  const magnitude = BigInt(spelled.slice(first, end)) * 10n ** BigInt(scale);
  return (sign === '-' ? -magnitude : magnitude) === BigInt(integer);
}
