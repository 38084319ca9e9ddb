import { describe, expect, it } from '@jest/globals';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import fc from 'fast-check';

import { FORMATS, REFUSED_FORMATS, SINGLE_PASS_FORMATS } from '../../lib/validation/add-formats.js';
import { callerValueAjv } from '../../lib/validation/caller-value-ajv.js';

// The single-pass format checks give ajv-formats' answers value for value: ajv-formats is the oracle, on strings
// built from the pieces its patterns branch on, and on arbitrary strings. One deliberate exception: `byte`, whose
// ajv-formats pattern is multiline (any one base64 line passes a value); its oracle is that pattern over the whole
// string.

type SinglePass = keyof typeof SINGLE_PASS_FORMATS;

/** ajv-formats' `byte` pattern (RFC 4648 §4 base64) without its multiline flag: it must match the whole value. */
const WHOLE_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** ajv-formats' own check of a format (a function, or a regex); for `byte`, its pattern over the whole string. */
function oracle(name: SinglePass): (value: string) => boolean {
  if (name === 'byte') return (value) => WHOLE_BASE64.test(value);
  const format = fullFormats[name] as RegExp | ((value: string) => boolean);
  return format instanceof RegExp ? (value) => format.test(value) : format;
}

/** Strings joined from `pieces` (and some arbitrary characters), up to `max` of them. */
const joined = (pieces: readonly string[], max: number) =>
  fc
    .array(fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...pieces) }, { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 2 }) }), { maxLength: max })
    .map((parts) => parts.join(''));

const URI_PIECES = [
  'a',
  'Z',
  'http',
  'x+y.z-1',
  '1',
  '0',
  '9',
  'f',
  'F',
  'v',
  'V',
  'g',
  '.',
  '-',
  '_',
  '~',
  '!',
  '$',
  '&',
  "'",
  '(',
  ')',
  '*',
  '+',
  ',',
  ';',
  '=',
  ':',
  '/',
  '//',
  '?',
  '#',
  '@',
  '[',
  ']',
  '%',
  '%41',
  '%4',
  '%zz',
  '%aF',
  '::',
  '::1',
  '1:2:3:4:5:6:7:8',
  'ffff:',
  '127.0.0.1',
  '256.1.1.1',
  'v1.',
  'vF.x',
  ':80',
  ':',
  ' ',
  '"',
  '<',
  '\\',
  '^',
  '`',
  '{',
  '|',
  '}',
  'é',
  '\u0130',
  '\u212a',
  '\n',
  '\u0000',
  '\ud800',
];
const SCHEMES = ['', 'a:', 'http:', 'HTTPS:', 'x+y.z-1:', '1a:', 'a b:', 'a', 'urn:', ':'];

/** Mostly the pieces of a URI part, sometimes one that breaks it. */
const part = (valid: readonly string[], max: number) =>
  fc.array(fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...valid) }, { weight: 1, arbitrary: fc.constantFrom(...URI_PIECES) }), { maxLength: max }).map((p) => p.join(''));
const IP_LITERALS = ['::1', '1:2:3:4:5:6:7:8', '::ffff:127.0.0.1', 'fe80::1', '1::', '::', 'v1.x', 'V1f.a:b', 'v.x', '1:2', ':::', 'g::1', '1:2:3:4:5:6:7:8:9'];
/** A URI from its parts (RFC 3986 §3): scheme, `//` authority, path, query, fragment, each sometimes broken. */
const structuredUri = fc
  .record({
    scheme: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('a:', 'http:', 'HTTPS:', 'x+y.z-1:') }, { weight: 1, arbitrary: fc.constantFrom(...SCHEMES) }),
    slashes: fc.constantFrom('', '/', '//', '///'),
    userinfo: fc.option(part(['u', ':', 'p', '%41', '!'], 3).map((u) => `${u}@`)),
    host: fc.oneof(
      part(['example', '.', 'com', '-', '%41', '1', '127.0.0.1'], 4),
      fc.constantFrom(...IP_LITERALS).map((ip) => `[${ip}]`),
    ),
    port: fc.option(part(['8', '0', ':'], 3).map((p) => `:${p}`)),
    path: part(['/', 'a', 'b', ':', '@', '%2F', '.', '..', '"'], 6),
    query: fc.option(part(['q', '=', '&', '/', '?', '%20', ':'], 5).map((q) => `?${q}`)),
    fragment: fc.option(part(['f', '/', '?', '@'], 3).map((f) => `#${f}`)),
  })
  .map(
    ({ scheme, slashes, userinfo, host, port, path, query, fragment }) => scheme + slashes + (userinfo ?? '') + host + (port ?? '') + path + (query ?? '') + (fragment ?? ''),
  );
const uriLike = fc.oneof(
  structuredUri,
  fc.tuple(fc.constantFrom(...SCHEMES), joined(URI_PIECES, 12)).map(([scheme, rest]) => scheme + rest),
);

const BYTE_PIECES = ['QUJD', 'QUI', 'QQ', 'Q', '=', '==', '===', '+/', 'AZaz09', '\n', '\r', '\r\n', '\u2028', '\u2029', '!', ' ', '-', '_', 'é'];
/** One line of base64: whole quanta, then a short last one padded (or not, or wrongly). */
const base64Line = fc
  .tuple(fc.array(fc.constantFrom('QUJD', '+/9z', 'AAAA'), { maxLength: 3 }), fc.constantFrom('', 'QQ==', 'QUI=', 'QQ', 'QUI', 'Q=', 'QQ=', 'QUI==', 'Q', '!AAA', '===='))
  .map(([quanta, last]) => quanta.join('') + last);
const byteLike = fc.oneof(
  base64Line,
  fc
    .array(fc.oneof(base64Line, fc.constantFrom('!!!', 'A')), { minLength: 2, maxLength: 3 })
    .chain((lines) => fc.constantFrom('\n', '\r', '\r\n', '\u2028').map((eol) => lines.join(eol))),
  joined(BYTE_PIECES, 10),
);

const TEMPLATE_PIECES = [
  'a',
  'Z',
  '/',
  ':',
  '?',
  '#',
  '%41',
  '%4',
  '%zz',
  '{',
  '}',
  '{a}',
  '{+a}',
  '{#a,b}',
  '{a:3}',
  '{a:0}',
  '{a:1234}',
  '{a:12345}',
  '{a*}',
  '{a,}',
  '{}',
  '{.}',
  '{a_B%41}',
  '{/a*,b:9}',
  '{a b}',
  '{|x}',
  ' ',
  '"',
  '<',
  '>',
  '\\',
  '^',
  '`',
  '|',
  "'",
  'é',
  '\ud800',
  '\u0000',
  '\t',
];

const EMAIL_PIECES = ['a', 'Z', '9', '.', '..', '-', '_', '+', '!', '~', '`', '|', '@', '@@', 'example', 'com', 'x-y', '-x', 'x-', ' ', '"', '(', 'é', '\u212a', '[1.2.3.4]'];
/** An address from a local part, `@` and a domain, each mostly made of what it may hold. */
const emailLike = fc.oneof(
  fc
    .tuple(
      joined(['a', 'Z', '0', '.', '!', '#', '$', "'", '*', '+', '/', '=', '?', '^', '_', '`', '{', '|', '}', '~', '-'], 6),
      joined(['a', 'b9', '-', '.', 'com', 'x-y'], 6),
    )
    .map(([local, domain]) => `${local}@${domain}`),
  joined(EMAIL_PIECES, 10),
);

const POINTER_PIECES = ['/', 'a', '~0', '~1', '~', '~2', '~~', '0', '1', '10', '01', '#', ' ', '%', 'é', '\ud800', '\n', '//'];

/** Per single-pass format: strings built from the pieces its ajv-formats pattern branches on, and examples. */
const CASES: { readonly [name in SinglePass]: { readonly built: fc.Arbitrary<string>; readonly examples: readonly [string, boolean][] } } = {
  uri: {
    built: uriLike,
    examples: [
      ['https://example.com/a/b?q=1#f', true],
      ['mailto:someone@example.com', true],
      ['urn:isbn:0451450523', true],
      ['file:///etc/hosts', true],
      ['a:/[::1]/x', true],
      ['a://user:pw@[v1.x]:8080/p', true],
      ['a://[::1', false],
      ['a:', false],
      ['1a:/b', false],
      ['no scheme', false],
      ['a:b c', false],
      ['a://h:8o/', true], // an empty authority after the first slash, then a path that may hold `:`
      ['a://[::1]:8o/', false],
      ['a:%zz', false],
    ],
  },
  byte: {
    built: byteLike,
    examples: [
      ['QUJD', true],
      ['QUI=', true],
      ['QQ==', true],
      ['', true],
      ['QUJDQQ', false],
      ['Q', false],
      ['Q===', false],
      ['QUJD!', false],
      // Line breaks are no base64: ajv-formats' multiline pattern passed each of these on one base64 line.
      ['!!!\nQUJD', false],
      ['!!!\r\n!!!', false],
      ['not base64 ###\n', false],
      ['QUJD\n', false],
      ['QUJD\nQUJD', false],
      ['!!!\n!!!', false],
    ],
  },
  'uri-template': {
    built: joined(TEMPLATE_PIECES, 8),
    examples: [
      ['notes://{id}', true],
      ['https://example.com/{+path}{?q,lang}', true],
      ['file:///{dir}/{name:3}{.ext*}', true],
      ['notes://plain', true],
      ['a{}', false],
      ['a{b', false],
      ['a}', false],
      ['{x:0}', false],
      ['{x:12345}', false],
      ['a b', false],
      ['%zz', false],
    ],
  },
  email: {
    built: emailLike,
    examples: [
      ['ada@example.com', true],
      ['first.last+tag@sub.example-host.org', true],
      ["!#$%&'*+/=?^_`{|}~-@a.b", true],
      ['ada@localhost', false],
      ['.ada@example.com', false],
      ['ada..b@example.com', false],
      ['ada@-example.com', false],
      ['ada@example-.com', false],
      ['ada@example.com.', false],
      ['a@b@example.com', false],
      ['ada@exa_mple.com', false],
    ],
  },
  'json-pointer': {
    built: joined(POINTER_PIECES, 8),
    examples: [
      ['', true],
      ['/', true],
      ['/a~0b/c~1d', true],
      ['a/b', false],
      ['/a~', false],
      ['/a~2', false],
    ],
  },
  'relative-json-pointer': {
    built: joined(POINTER_PIECES, 8),
    examples: [
      ['0', true],
      ['1#', true],
      ['10/a~1b', true],
      ['01', false],
      ['1#/a', false],
      ['#', false],
      ['-1', false],
    ],
  },
  'json-pointer-uri-fragment': {
    built: joined([...POINTER_PIECES, '%41', '%4', '%zz', '?', '"', '@', ':', '(', '*', 'Z'], 8).map((rest) => `#${rest}`),
    examples: [
      ['#', true],
      ['#/a~0b/c%20d', true],
      ['#/a b', false],
      ['#a', false],
      ['/a', false],
      ['#/a~2', false],
    ],
  },
  'uri-reference': {
    built: fc.oneof(uriLike, joined(URI_PIECES, 12)),
    examples: [
      ['', true],
      ['a/b?c#d', true],
      ['//host/path', true],
      ['../x', true],
      ['?q', true],
      ['#frag', true],
      ['https://example.com/"quoted"', true],
      ['a://[::1]/"x"', true],
      ['a:b', true],
      ['a b', false],
      ['//[::1', false],
      ['%zz', false],
    ],
  },
};

describe.each(Object.keys(CASES) as SinglePass[])('the %s format: ajv-formats answers, in one pass', (name) => {
  const check = SINGLE_PASS_FORMATS[name];
  const { built, examples } = CASES[name];

  it.each(examples)('%j is %s for both', (value, expected) => {
    expect(oracle(name)(value)).toBe(expected);
    expect(check(value)).toBe(expected);
  });

  it('agrees with ajv-formats on strings built from the pieces its pattern branches on', () => {
    fc.assert(
      fc.property(built, (value) => expect(check(value)).toBe(oracle(name)(value))),
      { numRuns: 5_000 },
    );
  });

  it('agrees with ajv-formats on arbitrary strings, alone and after a scheme', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 30 }), (value) => {
        expect(check(value)).toBe(oracle(name)(value));
        expect(check(`a:${value}`)).toBe(oracle(name)(`a:${value}`));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('the byte format: base64 over the whole value, unlike ajv-formats', () => {
  it.each(['not base64 ###\n', '{"secret":"json, not base64"}\nAAAA', 'QUJD\n'])('refuses %j, which ajv-formats passes on one of its lines', (value) => {
    expect((fullFormats.byte as (value: string) => boolean)(value)).toBe(true);
    expect(SINGLE_PASS_FORMATS.byte(value)).toBe(false);
  });
});

describe('the formats a schema may assert (FORMATS)', () => {
  it.each(Object.keys(fullFormats))('%s: refused, or checked (in a single pass where there is one)', (name) => {
    if (Object.hasOwn(REFUSED_FORMATS, name)) return expect(FORMATS[name]).toBeUndefined();
    const singlePass: Readonly<Record<string, unknown>> = SINGLE_PASS_FORMATS;
    expect(FORMATS[name]).toBe(singlePass[name] ?? fullFormats[name as keyof typeof fullFormats]);
  });

  it.each(Object.keys(CASES) as SinglePass[])('%s checks what a tool schema asserts: each example as ajv-formats judges it', (name) => {
    const validate = callerValueAjv().compile({ type: 'string', format: name });
    for (const [value, expected] of CASES[name].examples) expect(validate(value)).toBe(expected);
  });
});
