import { describe, expect, it } from '@jest/globals';

import { TEMPLATE_MATCH_MAX_CHARS, TEMPLATE_MATCH_MAX_STEPS, URI_TEMPLATE_OPERATORS, UriTemplate, UriTemplateError } from '../../lib/resources/uri-template.js';

/**
 * Matching reverses RFC 6570's own expansion examples (§1.2 levels 1–3, §3.2), with its variables:
 * var = "value", hello = "Hello World!", path = "/foo/bar", x = "1024", y = "768", empty = "".
 * Each row: template (after the `x:` scheme every template needs), its expansion, the variables read back.
 */
const RFC_EXAMPLES: [string, string, Record<string, string>][] = [
  ['{var}', 'value', { var: 'value' }],
  ['{hello}', 'Hello%20World%21', { hello: 'Hello World!' }],
  ['{+var}', 'value', { var: 'value' }],
  ['{+hello}', 'Hello%20World!', { hello: 'Hello World!' }],
  ['{+path}/here', '/foo/bar/here', { path: '/foo/bar' }],
  ['here?ref={+path}', 'here?ref=/foo/bar', { path: '/foo/bar' }],
  ['X{#var}', 'X#value', { var: 'value' }],
  ['X{#hello}', 'X#Hello%20World!', { hello: 'Hello World!' }],
  ['map?{x,y}', 'map?1024,768', { x: '1024', y: '768' }],
  ['{x,hello,y}', '1024,Hello%20World%21,768', { x: '1024', hello: 'Hello World!', y: '768' }],
  ['{+x,hello,y}', '1024,Hello%20World!,768', { x: '1024', hello: 'Hello World!', y: '768' }],
  ['{+path,x}/here', '/foo/bar,1024/here', { path: '/foo/bar', x: '1024' }],
  ['{#x,hello,y}', '#1024,Hello%20World!,768', { x: '1024', hello: 'Hello World!', y: '768' }],
  ['{#path,x}/here', '#/foo/bar,1024/here', { path: '/foo/bar', x: '1024' }],
  ['X{.var}', 'X.value', { var: 'value' }],
  ['X{.x,y}', 'X.1024.768', { x: '1024', y: '768' }],
  ['{/var}', '/value', { var: 'value' }],
  ['{/var,x}/here', '/value/1024/here', { var: 'value', x: '1024' }],
  ['{;x,y}', ';x=1024;y=768', { x: '1024', y: '768' }],
  ['{;x,y,empty}', ';x=1024;y=768;empty', { x: '1024', y: '768', empty: '' }],
  ['{?x,y}', '?x=1024&y=768', { x: '1024', y: '768' }],
  ['{?x,y,empty}', '?x=1024&y=768&empty=', { x: '1024', y: '768', empty: '' }],
  ['?fixed=yes{&x}', '?fixed=yes&x=1024', { x: '1024' }],
  ['{&x,y,empty}', '&x=1024&y=768&empty=', { x: '1024', y: '768', empty: '' }],
];

describe('UriTemplate.match, against the RFC 6570 examples', () => {
  it.each(RFC_EXAMPLES)('x:%s matches x:%s', (template, expansion, variables) => {
    expect({ ...UriTemplate.parse(`x:${template}`).match(`x:${expansion}`) }).toEqual(variables);
  });

  it('covers every operator it supports (a new operator needs an example)', () => {
    const used = new Set(RFC_EXAMPLES.flatMap(([template]) => [...template.matchAll(/\{([+#./;?&]?)/g)].map((m) => m[1])));
    expect([...used].sort()).toEqual(Object.keys(URI_TEMPLATE_OPERATORS).sort());
  });
});

describe('UriTemplate.match, absent variables and ambiguity', () => {
  it('leaves out variables the URI gives no value', () => {
    expect({ ...UriTemplate.parse('app://search{?q,lang}').match('app://search') }).toEqual({});
    expect({ ...UriTemplate.parse('app://search{?q,lang}').match('app://search?lang=en') }).toEqual({ lang: 'en' });
    expect({ ...UriTemplate.parse('app://search{?q,lang}').match('app://search?lang=en&q=cats') }).toEqual({ lang: 'en', q: 'cats' });
    expect({ ...UriTemplate.parse('app://items/{id}/data').match('app://items//data') }).toEqual({});
    expect({ ...UriTemplate.parse('app://p/{x,y}').match('app://p/,2') }).toEqual({ y: '2' });
    expect({ ...UriTemplate.parse('app://p{/x}').match('app://p/') }).toEqual({});
  });

  it('gives each expression as little as it can, left to right, as long as what follows still matches', () => {
    expect({ ...UriTemplate.parse('file:///{+path}/raw').match('file:///a/b/c/raw') }).toEqual({ path: 'a/b/c' });
    expect({ ...UriTemplate.parse('app://{name}.txt').match('app://my.notes.txt') }).toEqual({ name: 'my.notes' });
    expect({ ...UriTemplate.parse('file:///{+path}{?q,r}').match('file:///a/b?q=1&r=2') }).toEqual({ path: 'a/b', q: '1', r: '2' });
    expect({ ...UriTemplate.parse('app://{name}{.ext}').match('app://file.tar.gz') }).toEqual({ name: 'file', ext: 'tar.gz' });
    expect({ ...UriTemplate.parse('app://{+a}/{+b}').match('app://x/y/z') }).toEqual({ a: 'x', b: 'y/z' });
  });

  it('takes each unreserved mark ("-", ".", "_", "~") into a value as it is', () => {
    expect(UriTemplate.parse('app://u/{name}').match('app://u/a-b.c_d~e')).toEqual({ name: 'a-b.c_d~e' });
  });

  it('percent-decodes values, and refuses a value that is not UTF-8', () => {
    expect(UriTemplate.parse('app://u/{name}').match('app://u/J%C3%BCrgen')).toEqual({ name: 'Jürgen' });
    expect(UriTemplate.parse('app://s{?q}').match('app://s?q=a%20b')).toEqual({ q: 'a b' });
    expect(UriTemplate.parse('app://s{?user.name}').match('app://s?user.name=ada')).toEqual({ 'user.name': 'ada' });
    expect(UriTemplate.parse('app://u/{name}').match('app://u/%FF')).toBeUndefined();
  });

  it('never ends an expression inside a percent-encoding, even where a literal would follow', () => {
    expect(UriTemplate.parse('app://{a}F{b}').match('app://%2FFx')).toEqual({ a: '/', b: 'x' });
  });

  it('matches no more items than an expression has variables: a value of several cannot hold the separator', () => {
    expect(UriTemplate.parse('app://{+a,b}').match('app://x,y')).toEqual({ a: 'x', b: 'y' });
    expect(UriTemplate.parse('app://{+a,b}').match('app://x,y,z')).toBeUndefined();
    expect(UriTemplate.parse('app://f{.a,b}').match('app://f.x.y.z')).toBeUndefined();
    expect(UriTemplate.parse('app://f{.a}').match('app://f.x.y.z')).toEqual({ a: 'x.y.z' });
  });

  it('keeps variables named like Object.prototype members as plain values, and inherits none', () => {
    const variables = UriTemplate.parse('app://{__proto__}{?constructor,toString}').match('app://x?toString=y')!;
    expect(Object.getOwnPropertyDescriptor(variables, '__proto__')?.value).toBe('x');
    expect(variables.toString).toBe('y');
    expect('constructor' in variables).toBe(false);
  });

  it.each([
    ['a different literal', 'test://template/{id}/data', 'test://template/1/info'],
    ['a reserved character in a simple value', 'app://u/{name}', 'app://u/a/b'],
    ['a query parameter the template does not name', 'app://s{?q}', 'app://s?q=1&r=2'],
    ['a query item without "="', 'app://s{?q}', 'app://s?q'],
    ['a named item twice', 'app://s{?q,r}', 'app://s?q=1&q=2'],
    ['more values than variables', 'app://p/{x,y}', 'app://p/1,2,3'],
  ])('does not match %s', (_what, template, uri) => {
    expect(UriTemplate.parse(template).match(uri)).toBeUndefined();
  });

  it(`matches no URI longer than ${TEMPLATE_MATCH_MAX_CHARS} characters`, () => {
    const template = UriTemplate.parse('app://{+rest}');
    expect(template.match(`app://${'a'.repeat(TEMPLATE_MATCH_MAX_CHARS - 6)}`)).toEqual({ rest: 'a'.repeat(TEMPLATE_MATCH_MAX_CHARS - 6) });
    expect(template.match(`app://${'a'.repeat(TEMPLATE_MATCH_MAX_CHARS)}`)).toBeUndefined();
  });

  it.each([
    ['app://{a}{b}{c}-{d}/end', `app://${'a'.repeat(4000)}-x!/end`],
    ['app://{a}.{b}.{c}.{d}/end', `app://${'a.'.repeat(2000)}!/end`],
    ['app://{+a}{/b}{/c}-{d}', `app://${'a/'.repeat(2000)}-x!`],
  ])(`stays within ${TEMPLATE_MATCH_MAX_STEPS} steps on %s and a URI it almost matches`, (template, uri) => {
    const started = performance.now();
    expect(UriTemplate.parse(template).match(uri)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(500);
  });

  // Only `{+a}` taking the whole run and its "/" leaves `{b}` and "/z" a fit. a's ends are tried shortest first, and
  // from each b scans the rest of the run: about n²/2 states searched and as many candidate ends scanned, both
  // counted as steps (n = 300: about 90,000 in all; n = 400: about 160,000, of which only 80,000 are states).
  it(`counts the candidate ends an expression scans against the ${TEMPLATE_MATCH_MAX_STEPS} steps, besides the states`, () => {
    const template = UriTemplate.parse('app://{+a}{b}/z');
    expect(template.match(`app://${'a'.repeat(300)}/a/z`)).toEqual({ a: `${'a'.repeat(300)}/`, b: 'a' });
    expect(template.match(`app://${'a'.repeat(400)}/a/z`)).toBeUndefined();
  });

  // Every split of the first run among b, c and d fails at "/z" (about 60⁴/24 = 540,000 of them, past the steps);
  // searched once each, their (expression, position) states take a few thousand steps before `{+a}` takes the "/".
  it('searches each expression from each position once, so a match past many failed splits is still found', () => {
    const template = UriTemplate.parse('app://{+a}{b}{c}{d}/z');
    expect(template.match(`app://${'a'.repeat(60)}/a/z`)).toEqual({ a: `${'a'.repeat(60)}/`, d: 'a' });
  });
});

describe('UriTemplate.parse refusals', () => {
  it.each([
    ['no scheme', '/files/{path}', /must start with a URI scheme/],
    ['a scheme inside an expression', '{scheme}://x', /must start with a URI scheme/],
    ['no variable', 'app://fixed', /has no \{variable\}/],
    ['an unclosed expression', 'app://{id', /never closed/],
    ['a stray "}"', 'app://id}', /"\}" with no "\{"/],
    ['an empty expression', 'app://{}', /empty expression/],
    ['a prefix modifier (level 4)', 'app://{id:3}', /level 4 modifier/],
    ['an explode modifier (level 4)', 'app://{/path*}', /level 4 modifier/],
    ...[...'=,!@|'].map((op) => [`the reserved operator "${op}"`, `app://{${op}id}`, /reserves for future extensions/] as const),
    ['an invalid variable name', 'app://{a-b}', /invalid variable name "a-b"/],
    ['a variable name ending in "."', 'app://{a.}', /invalid variable name "a\."/],
    ['a variable name with two "." in a row', 'app://{a..b}', /invalid variable name "a\.\.b"/],
    ['a variable used twice', 'app://{id}/{id}', /uses the variable "id" twice/],
    ['a space in a literal', 'app://my files/{id}', /cannot hold/],
    ['a non-ASCII literal', 'app://café/{id}', /cannot hold/],
  ])('refuses %s', (_what, template, message) => {
    expect(() => UriTemplate.parse(template)).toThrow(UriTemplateError);
    expect(() => UriTemplate.parse(template)).toThrow(message);
  });

  it('lists the variables in order of appearance', () => {
    expect(UriTemplate.parse('app://{a}/{+b}{?c,d}').variables).toEqual(['a', 'b', 'c', 'd']);
  });
});

/** An RFC example's template with each expression's variable names changed by `names`. */
const respelled = (template: string, names: (names: string[]) => string[]) =>
  template.replace(/\{([+#./;?&]?)([^}]*)\}/g, (_whole, operator: string, list: string) => `{${operator}${names(list.split(',')).join(',')}}`);
/** Whether a template writes its variable names into a URI (`;`, `?`, `&`). */
const writesNames = (template: string) => /\{[;?&]/.test(template);

describe('UriTemplate.shape: two templates of one shape match the same URIs', () => {
  it.each([
    ['notes://notes/{title}', 'notes://notes/{_}'],
    ['x:{+path,x}/here', 'x:{+_,_}/here'],
    ['x:X{.x,y}', 'x:X{._,_}'],
    ['x:{/var,x}/here', 'x:{/_,_}/here'],
    ['x:{#var}', 'x:{#_}'],
    ['x:{;y,x}', 'x:{;x,y}'],
    ['x:search{?q,lang}', 'x:search{?lang,q}'],
    ['x:?fixed=yes{&x}', 'x:?fixed=yes{&x}'],
  ])('spells %s as %s', (template, shape) => {
    expect(UriTemplate.parse(template).shape).toBe(shape);
  });

  it.each(RFC_EXAMPLES)('x:%s renamed keeps its shape and its match where the URI holds no name, and changes both where it does', (template, expansion) => {
    const [own, renamed] = [UriTemplate.parse(`x:${template}`), UriTemplate.parse(`x:${respelled(template, (names) => names.map((name) => `${name}_2`))}`)];
    expect(own.match(`x:${expansion}`)).toBeDefined();
    if (writesNames(template)) {
      expect(renamed.shape).not.toBe(own.shape);
      expect(renamed.match(`x:${expansion}`)).toBeUndefined();
    } else {
      expect(renamed.shape).toBe(own.shape);
      expect(renamed.shape.match(/\{[^}]*\}/g)!.every((expression) => /^\{[+#./]?_(?:,_)*\}$/.test(expression))).toBe(true);
      expect(renamed.match(`x:${expansion}`)).toBeDefined();
    }
  });

  it.each(RFC_EXAMPLES.filter(([template]) => writesNames(template) && /,/.test(template)))(
    'x:%s with its names in another order keeps its shape and its match (a URI may give them in any order)',
    (template, expansion) => {
      const [own, reversed] = [UriTemplate.parse(`x:${template}`), UriTemplate.parse(`x:${respelled(template, (names) => [...names].reverse())}`)];
      expect(reversed.template).not.toBe(own.template);
      expect(reversed.shape).toBe(`x:${respelled(template, (names) => [...names].sort())}`);
      expect(reversed.shape).toBe(own.shape);
      expect(reversed.match(`x:${expansion}`)).toEqual(own.match(`x:${expansion}`));
    },
  );

  it('gives each operator a shape of its own', () => {
    const shapes = Object.keys(URI_TEMPLATE_OPERATORS).map((operator) => UriTemplate.parse(`x:{${operator}a}`).shape);
    expect(new Set(shapes).size).toBe(Object.keys(URI_TEMPLATE_OPERATORS).length);
  });
});
