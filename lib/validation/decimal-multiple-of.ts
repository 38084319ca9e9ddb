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
  const [digits, exponent] = decimal(value);
  const [divisorDigits, divisorExponent] = decimal(divisor);
  // value = digits·10^exponent, divisor = divisorDigits·10^divisorExponent: scale the one with the larger exponent.
  const shift = exponent - divisorExponent;
  return shift >= 0 ? (digits * 10n ** BigInt(shift)) % divisorDigits === 0n : digits % (divisorDigits * 10n ** BigInt(-shift)) === 0n;
}

/** A finite number's shortest decimal spelling as digits and a power of ten, its sign dropped. */
function decimal(n: number): [bigint, number] {
  const [mantissa, power = '0'] = String(Math.abs(n)).split('e');
  const [whole, fraction = ''] = mantissa!.split('.');
  return [BigInt(whole! + fraction), Number(power) - fraction.length];
}
