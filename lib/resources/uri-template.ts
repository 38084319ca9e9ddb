import { escapeAt } from '../validation/ascii.js';
import { SCHEME } from './resource-uri.js';

/**
 * RFC 6570 URI templates, levels 1–3, parsed at module init and matched against requested URIs.
 * Proven by: test/resources/uri-template.spec.ts, test/e2e/resources.e2e-spec.ts (the operator sweep)
 */

/** How one operator expands (RFC 6570 §3.2.1, Appendix A): its prefix, separator, whether items are named. */
interface OperatorRule {
  readonly first: string;
  readonly sep: string;
  readonly named: boolean;
  /** Whether values may hold reserved characters unencoded (`+`, `#`). */
  readonly reserved: boolean;
}

/**
 * The operators this library matches: every operator of levels 1–3. Level 4's modifiers (prefix `:n`, explode
 * `*`) and the operators RFC 6570 reserves (`=`, `,`, `!`, `@`, `|`) are refused at module init.
 */
export const URI_TEMPLATE_OPERATORS = {
  '': { first: '', sep: ',', named: false, reserved: false },
  '+': { first: '', sep: ',', named: false, reserved: true },
  '#': { first: '#', sep: ',', named: false, reserved: true },
  '.': { first: '.', sep: '.', named: false, reserved: false },
  '/': { first: '/', sep: '/', named: false, reserved: false },
  ';': { first: ';', sep: ';', named: true, reserved: false },
  '?': { first: '?', sep: '&', named: true, reserved: false },
  '&': { first: '&', sep: '&', named: true, reserved: false },
} as const satisfies Record<string, OperatorRule>;

/** An operator this library matches (`''` is simple string expansion). */
export type UriTemplateOperator = keyof typeof URI_TEMPLATE_OPERATORS;

/** The expressions of a URI template literal type (`'a/{id}{?q,n}'` gives `'id' | '?q,n'`). */
type TemplateExpressions<T extends string> = T extends `${string}{${infer Expression}}${infer Rest}` ? Expression | TemplateExpressions<Rest> : never;
type WithoutOperator<E extends string> = E extends `${Exclude<UriTemplateOperator, ''>}${infer List}` ? (List extends '' ? E : List) : E;
type VariableName<V extends string> = V extends `${infer Name}*` ? Name : V extends `${infer Name}:${string}` ? Name : V;
type VariableNames<L extends string> = L extends `${infer First},${infer Rest}` ? VariableName<First> | VariableNames<Rest> : VariableName<L>;

/**
 * The variable names of a URI template written as a literal type (`'app://users/{id}{?fields}'` gives `'id' |
 * 'fields'`); `string` for a template that is not a literal. @publicApi
 */
export type McpUriVariableName<T extends string = string> = string extends T ? string : VariableNames<WithoutOperator<TemplateExpressions<T>>>;

/**
 * The variables a URI gave a template: percent-decoded values by variable name; one the URI gives no value is
 * absent. `McpUriVariables<'app://users/{id}'>` names the template's own variables. @publicApi
 */
export type McpUriVariables<T extends string = string> = Readonly<Partial<Record<McpUriVariableName<T>, string>>>;

/** The longest URI matched against templates; a longer one matches none. */
export const TEMPLATE_MATCH_MAX_CHARS = 4096;

/**
 * The most search steps (states visited, ends scanned) one match may take; past it the URI does not match. Only a template with adjacent
 * expressions whose characters overlap (`{a}{b}`, `{+path}{/x}`) can come near it, on a URI it almost matches.
 */
export const TEMPLATE_MATCH_MAX_STEPS = 100_000;

/** Thrown by {@link UriTemplate.parse} with one sentence saying what is wrong with the template. */
export class UriTemplateError extends Error {
  override readonly name = 'UriTemplateError';
}

type Part = { readonly literal: string } | { readonly operator: UriTemplateOperator; readonly rule: OperatorRule; readonly names: readonly string[] };

const isUnreserved = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2d || c === 0x2e || c === 0x5f || c === 0x7e;
const RESERVED = new Set(":/?#[]@!$&'()*+,;=");
/** A character of a variable name as written in a named expansion (`varchar` or its inner `.`). */
const isNameChar = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2e;
/** RFC 6570 `literals`, ASCII only: a template is matched against URIs, which are ASCII. */
const LITERAL = /^(?:[!#$&(-;=?-[\]_a-z~]|%[0-9A-Fa-f]{2})*$/;
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$/;

/**
 * A parsed URI template. Matching reverses expansion: a URI matches when some assignment of the variables expands
 * to it (each variable absent or a string). When it can be split more than one way, each expression takes as little
 * as it can, left to right (so `file:///{+path}{?q}` leaves the query to `q`). A value is percent-decoded; a variable the URI gives no value (or, outside `;`, `?`
 * and `&`, an empty one) is absent from the variables. An expression of several variables takes its values in
 * order, split at the operator's separator (so with `{+a,b}` a value cannot hold a comma).
 */
export class UriTemplate {
  /** The template's variable names, in order of appearance. */
  readonly variables: readonly string[];

  /**
   * What the template matches, spelled without what does not change it: each variable name a URI never holds
   * (every operator but `;`, `?` and `&`) is `_`, and the names of a `;`, `?` or `&` expression, which a URI holds
   * in any order, are sorted. Two templates of one shape match the same URIs: `notes://{title}` and
   * `notes://{id}` are both `notes://{_}`.
   */
  readonly shape: string;

  private constructor(
    readonly template: string,
    private readonly parts: readonly Part[],
  ) {
    this.variables = parts.flatMap((part) => ('names' in part ? part.names : []));
    this.shape = parts
      .map((part) => ('literal' in part ? part.literal : `{${part.operator}${(part.rule.named ? [...part.names].sort() : part.names.map(() => '_')).join(',')}}`))
      .join('');
  }

  /** Parses a template, or throws a `UriTemplateError` naming the first problem. */
  static parse(template: string): UriTemplate {
    const parts: Part[] = [];
    const seen = new Set<string>();
    let at = 0;
    while (at < template.length) {
      const open = template.indexOf('{', at);
      const literal = template.slice(at, open < 0 ? template.length : open);
      if (literal) {
        if (literal.includes('}')) throw new UriTemplateError(`has a "}" with no "{" before it`);
        if (!LITERAL.test(literal))
          throw new UriTemplateError(
            `has a character a URI template literal cannot hold in ${JSON.stringify(literal)} (space, quote, <, >, \\, ^, \`, |, non-ASCII, or a lone %; percent-encode it)`,
          );
        parts.push({ literal });
      }
      if (open < 0) break;
      const close = template.indexOf('}', open);
      if (close < 0) throw new UriTemplateError(`has a "{" at ${open} that is never closed`);
      parts.push(expression(template.slice(open + 1, close), seen));
      at = close + 1;
    }
    const first = parts[0];
    if (!first || !('literal' in first) || !SCHEME.test(first.literal))
      throw new UriTemplateError('must start with a URI scheme written out (for example "file://" or "app:"), before any {expression}');
    if (seen.size === 0) throw new UriTemplateError('has no {variable}; a URI without variables is a resource (@McpResource), not a template');
    return new UriTemplate(template, parts);
  }

  /** The variables `uri` gives this template, or undefined when it does not match. */
  match(uri: string): McpUriVariables | undefined {
    if (uri.length > TEMPLATE_MATCH_MAX_CHARS) return undefined;
    const [first, last] = [this.parts[0]!, this.parts.at(-1)!];
    if (('literal' in first && !uri.startsWith(first.literal)) || ('literal' in last && !uri.endsWith(last.literal))) return undefined;
    const spans: [number, number][] = [];
    // Memoized search over (part, position): each state is searched at most once, so no input backtracks
    // exponentially; each expression scans its possible ends into its own buffer.
    const failed = new Uint8Array(this.parts.length * (uri.length + 1));
    const buffers = this.parts.map((part) => ('names' in part ? new Int32Array(uri.length + 1) : undefined));
    let steps = 0;
    const search = (index: number, position: number): boolean => {
      if (++steps > TEMPLATE_MATCH_MAX_STEPS) return false;
      if (index === this.parts.length) return position === uri.length;
      const key = index * (uri.length + 1) + position;
      if (failed[key]) return false;
      const part = this.parts[index]!;
      if ('literal' in part) {
        if (uri.startsWith(part.literal, position) && search(index + 1, position + part.literal.length)) return true;
      } else {
        const ends = buffers[index]!;
        const count = expansionEnds(uri, position, part, ends);
        steps += count;
        for (let i = 0; i < count; i++)
          if (search(index + 1, ends[i]!)) {
            spans[index] = [position, ends[i]!];
            return true;
          }
      }
      failed[key] = 1;
      return false;
    };
    if (!search(0, 0) || steps > TEMPLATE_MATCH_MAX_STEPS) return undefined;
    const variables: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const [index, part] of this.parts.entries()) {
      if (!('names' in part)) continue;
      const [from, to] = spans[index]!;
      if (!assign(uri.slice(from, to), part, variables)) return undefined;
    }
    return variables;
  }
}

/** Parses the inside of one `{…}`; `seen` collects the template's variable names, which must be unique. */
function expression(inside: string, seen: Set<string>): Part {
  if (inside === '') throw new UriTemplateError('has an empty expression "{}"');
  const head = inside[0]!;
  if ('=,!@|'.includes(head)) throw new UriTemplateError(`uses the operator "${head}" in "{${inside}}", which RFC 6570 reserves for future extensions`);
  const operator = (head in URI_TEMPLATE_OPERATORS && head !== '' ? head : '') as UriTemplateOperator;
  const names = (operator === '' ? inside : inside.slice(1)).split(',');
  for (const name of names) {
    if (/[:*]/.test(name))
      throw new UriTemplateError(`uses a level 4 modifier in "{${inside}}" (a prefix ":n" or an explode "*"), which this server does not match; use levels 1–3`);
    if (!VARNAME.test(name))
      throw new UriTemplateError(`has an invalid variable name ${JSON.stringify(name)} in "{${inside}}" (letters, digits, "_", percent-encodings, inner ".")`);
    if (seen.has(name)) throw new UriTemplateError(`uses the variable "${name}" twice; each variable may appear once`);
    seen.add(name);
  }
  return { operator, rule: URI_TEMPLATE_OPERATORS[operator], names };
}

/** Whether `uri[i]` can be part of a value of `part`; the separator is a value character only for a lone variable. */
function valueChar(uri: string, i: number, part: Extract<Part, { names: unknown }>): boolean {
  const c = uri.charCodeAt(i);
  if (part.names.length > 1 && c === part.rule.sep.charCodeAt(0)) return false;
  return isUnreserved(c) || (part.rule.reserved && RESERVED.has(uri[i]!));
}

/** Length of the percent-encoding at `uri[i]` (3), or 0 when there is none. */
const pct = (uri: string, i: number) => (escapeAt(uri, i) ? 3 : 0);

/**
 * Writes into `ends` every position (ascending) at which an expansion of `part` starting at `from` may end, and
 * returns how many: one linear scan of the expression's grammar (`first item (sep item)*`, at most one item per
 * variable; named items are `name=value`, or `name` alone for `;`). The empty expansion (every variable absent)
 * ends at `from`.
 */
function expansionEnds(uri: string, from: number, part: Extract<Part, { names: unknown }>, ends: Int32Array): number {
  let count = 0;
  const push = (at: number) => {
    if (count === 0 || ends[count - 1] !== at) ends[count++] = at;
  };
  push(from);
  const { first, sep, named } = part.rule;
  let i = from;
  if (first) {
    if (uri[i] !== first) return count;
    i++;
  }
  const used = new Set<string>();
  for (let item = 1; ; item++) {
    let valued = true;
    if (named) {
      const start = i;
      while (i < uri.length && (isNameChar(uri.charCodeAt(i)) || pct(uri, i))) i += pct(uri, i) || 1;
      const name = uri.slice(start, i);
      if (!part.names.includes(name) || used.has(name)) return count;
      used.add(name);
      if (uri[i] === '=') i++;
      else if (part.operator === ';') valued = false;
      else return count;
    }
    push(i);
    while (valued) {
      const step = pct(uri, i) || (i < uri.length && valueChar(uri, i, part) ? 1 : 0);
      if (!step) break;
      i += step;
      push(i);
    }
    if (item >= part.names.length || uri[i] !== sep) return count;
    i++;
  }
}

/** Reads one expression's expansion into `into`; false when a value is not valid percent-encoded UTF-8. */
function assign(text: string, part: Extract<Part, { names: unknown }>, into: Record<string, string>): boolean {
  if (text === '') return true;
  const body = part.rule.first ? text.slice(1) : text;
  const items = part.names.length > 1 || part.rule.named ? body.split(part.rule.sep) : [body];
  try {
    items.forEach((item, index) => {
      if (part.rule.named) {
        const eq = item.indexOf('=');
        into[eq < 0 ? item : item.slice(0, eq)] = eq < 0 ? '' : decodeURIComponent(item.slice(eq + 1));
      } else if (item !== '') into[part.names[index]!] = decodeURIComponent(item);
    });
  } catch {
    return false;
  }
  return true;
}
