import type { SchemaValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';

/**
 * Replaces ajv's `multipleOf`, which divides in binary floating point: `19.99` is no multiple of `0.01` there
 * (1998.9999999999998), nor `0.3` of `0.1`. Here the two numbers are compared in decimal, as JSON writes them (each
 * number's shortest spelling): a value is a multiple when dividing it by the divisor gives an integer, as JSON
 * Schema 2020-12 (Validation, 6.2.1) says. Integers within 2^53 are compared directly. A failure is ajv's own
 * `multipleOf` error. Applied by `callerValueAjv`. Proven by: test/validation/decimal-multiple-of.spec.ts
 */
export function decimalMultipleOf(ajv: Ajv2020): Ajv2020 {
  ajv.removeKeyword('multipleOf');
  const validate: SchemaValidateFunction = (divisor: number, value: number): boolean => {
    if (isDecimalMultiple(value, divisor)) return true;
    validate.errors = [{ keyword: 'multipleOf', params: { multipleOf: divisor } }];
    return false;
  };
  return ajv.addKeyword({ keyword: 'multipleOf', type: 'number', schemaType: 'number', validate });
}

/** Whether `value` is an integer times `divisor` (> 0), in decimal; never for a value past JSON's range. */
export function isDecimalMultiple(value: number, divisor: number): boolean {
  if (!Number.isFinite(value)) return false;
  if (Number.isSafeInteger(value) && Number.isSafeInteger(divisor)) return value % divisor === 0;
  const [divisorDigits, divisorExponent] = divisorDecimal(divisor);
  // An integer (every double past 2^53 is one) is a multiple of a power of ten up to 1 (0.01, 0.1, 1): no spelling needed.
  if (divisorDigits === 1n && divisorExponent <= 0 && Number.isInteger(value)) return true;
  const [digits, exponent] = decimal(value);
  // value = digits·10^exponent, divisor = divisorDigits·10^divisorExponent: scale the one with the larger exponent.
  const shift = exponent - divisorExponent;
  if (shift >= 0) return divisorDigits === 1n || (digits * tenToThe(shift)) % divisorDigits === 0n;
  return digits % (divisorDigits * tenToThe(-shift)) === 0n;
}

/** A finite number's shortest decimal spelling as digits and a power of ten, its sign dropped. */
function decimal(n: number): [bigint, number] {
  const [mantissa, power = '0'] = String(Math.abs(n)).split('e');
  const [whole, fraction = ''] = mantissa!.split('.');
  return [BigInt(whole! + fraction), Number(power) - fraction.length];
}

/** The last divisor's decimal: a schema checks every value of a list against one divisor. */
let lastDivisor = NaN;
let lastDivisorDecimal: [bigint, number] = [1n, 0];
function divisorDecimal(divisor: number): [bigint, number] {
  if (divisor !== lastDivisor) [lastDivisor, lastDivisorDecimal] = [divisor, decimal(divisor)];
  return lastDivisorDecimal;
}

/** 10^k, each computed once: k stays below about 650, the span of a double's decimal exponents. */
const POWERS_OF_TEN: bigint[] = [1n];
function tenToThe(k: number): bigint {
  for (let i = POWERS_OF_TEN.length; i <= k; i++) POWERS_OF_TEN.push(POWERS_OF_TEN[i - 1]! * 10n);
  return POWERS_OF_TEN[k]!;
}
