import { Logger } from '@nestjs/common';
import type { ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';

import { McpConfigurationError, got } from '../errors/mcp-configuration.error.js';
import { bounded, quoted } from '../util/bounded.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { WeakValueCache } from '../util/weak-value-cache.js';
import { REFUSED_FORMATS } from './add-formats.js';
import { itemLimits } from './bounded-schema.js';
import { callerValueAjv } from './caller-value-ajv.js';
import { strayDynamicRef } from './dynamic-ref.js';
import { describeCycle, inPlaceCycle } from './in-place-cycle.js';
import { jsonValueOffence } from './json-value.js';
import type { SchemaDocument } from './local-ref.js';
import { metaSchemaProblems } from './meta-schema.js';
import { misspelledKeywordWarnings, misspelledKeywords } from './misspelled-keywords.js';
import { firstSubschemaWhere } from './schema-applicators.js';
import { referenceHoldingBranches, unionFactsOf, unionLookup, unionRefs, type UnionFactsOf, type UnionLookup } from './union-branches.js';
import { failedBoundedCheck, failedCheck, type FailedCheck } from './value-count.js';

/** A check of caller-sent values: what failed, or undefined when every value passes. */
export type ValueCheck = (value: unknown) => FailedCheck | undefined;

/** The {@link UnionLookup} of one failed value of a schema (built once per schema text: `unionReadingOf`). */
type UnionLookupOf = (value: unknown) => UnionLookup;

/**
 * A schema a server-side value is checked against (a tool's output schema): its validator, its unions' facts, and,
 * when its unions may report errors ajv's schema paths do not place, the lookup that places a failed value's
 * problems.
 */
export interface OutputCheck {
  readonly validate: ValidateFunction;
  /**
   * The first-problem validator of a schema holding a `$ref`, which decides: only a recursion nests a value past what
   * the every-problem one's stack reaches, and the first-problem one, keeping less at each level, reaches deeper.
   */
  readonly first?: ValidateFunction;
  readonly unionFacts?: UnionFactsOf;
  readonly unionLookupOf?: UnionLookupOf;
}

/** What describing a schema's failed checks may ask of its unions, built once per schema text. */
interface UnionReading {
  readonly facts?: UnionFactsOf;
  readonly lookup?: UnionLookupOf;
}

/**
 * Validators and checks by schema text, shared by every compiler in the process: an identical schema is compiled
 * once while an application uses it, and let go with the last that does.
 */
const compiledByText = new WeakValueCache<string, ValidateFunction>();
const firstProblemByText = new WeakValueCache<string, ValidateFunction>();
const checkByText = new WeakValueCache<string, ValueCheck>();
const unionReadingByText = new WeakValueCache<string, UnionReading>();
const NO_UNIONS: UnionReading = {};

const logger = new Logger('Mcp');

/** How many unknown formats of one schema its configuration error names; the rest are counted. */
export const UNKNOWN_FORMATS_NAMED = 10;

/** The members every object inherits (`constructor`, `toString`, `__proto__`, ...), each as JSON spells a string. */
const INHERITED_NAMES = Object.getOwnPropertyNames(Object.prototype).map((name) => JSON.stringify(name));

/**
 * Whether a schema, by its JSON text, may name a property after an inherited member. ajv reads a declared property
 * as `data[name]`, which finds the inherited one on a value without it (an optional `constructor` checked against a
 * function, a required `toString` never missing), unless told to read own properties only, which costs every check
 * of the schema (about a third more on a 20-property object): so only such a schema is read that way. Any string
 * equal to such a name counts (an `enum` value too), which only errs towards the exact reading.
 */
export const namesInheritedMember = (text: string): boolean => INHERITED_NAMES.some((quoted) => text.includes(quoted));

/**
 * Compiles consumer-written JSON Schemas (2020-12) at module init (an elicitation form when first asked with), never
 * per request; `$ref`s resolve only inside the schema. A schema ajv cannot build, holding a non-JSON value, naming
 * an unknown format, declaring `$async` (a promise reads as a pass to a synchronous check), a property named
 * `__proto__` (whose value ajv skips), a `$dynamicRef` naming no `$dynamicAnchor` around it ({@link strayDynamicRef})
 * or a recursion that never descends into the value ({@link inPlaceCycle}) is a `McpConfigurationError` naming where
 * it was declared; a key that is a near miss of an asserting keyword (`maxlength`) is warned about once, as ajv
 * ignores it.
 */
export class SchemaCompiler {
  /** Formats ajv reported unknown while compiling the current schema (it only logs them when not strict). */
  private unknownFormats: string[] = [];
  private readonly ajv = this.namingAjv();

  /**
   * The instances built on first need: `own`, reading own properties only ({@link namesInheritedMember}); `first`,
   * the same dialect stopping at the first problem, for values too large to describe every problem of under a schema
   * that is not bounded.
   */
  private readonly lazyAjv: { own?: Ajv2020; first?: Ajv2020; ownFirst?: Ajv2020 } = {};

  /** An instance that names every problem, collecting the unknown formats it reports. */
  private namingAjv(overrides: { ownProperties?: boolean } = {}): Ajv2020 {
    return callerValueAjv({
      ...overrides,
      logger: {
        log: () => undefined,
        error: () => undefined,
        warn: (...messages: unknown[]) => {
          const format = /unknown format "([^"]*)"/.exec(messages.map(String).join(' '))?.[1];
          if (format !== undefined) this.unknownFormats.push(format);
        },
      },
    });
  }

  /** The instance that compiles a schema of this text, naming every problem or (`first`) stopping at the first. */
  private ajvFor(text: string, first = false): Ajv2020 {
    const own = namesInheritedMember(text);
    if (!first) return own ? (this.lazyAjv.own ??= this.namingAjv({ ownProperties: true })) : this.ajv;
    if (own) return (this.lazyAjv.ownFirst ??= callerValueAjv({ allErrors: false, ownProperties: true, logger: false }));
    return (this.lazyAjv.first ??= callerValueAjv({ allErrors: false, logger: false }));
  }

  /** Compiles one schema; `where` names its declaration for the refusal. */
  compile(schema: unknown, where: string): ValidateFunction {
    return this.compileChecked(schema, where).validate;
  }

  /** Compiles a schema server-side values are checked against, with its union lookup (see {@link OutputCheck}). */
  compileOutput(schema: unknown, where: string): OutputCheck {
    const { validate, text } = this.compileChecked(schema, where);
    const { facts, lookup } = this.unionReadingOf(schema as SchemaDocument, text);
    const first = text.includes('"$ref"') || text.includes('"$dynamicRef"') ? this.compileFirstProblem(schema as object, text) : undefined;
    return { validate, ...(first && { first }), ...(facts && { unionFacts: facts }), ...(lookup && { unionLookupOf: lookup }) };
  }

  /**
   * Compiles one schema into a check of caller-sent values that stays bounded however large the value is: a
   * bounded schema (`itemLimits`) once, naming every problem; any other twice, adding a validator that stops at the
   * first problem, for values past `DETAILED_CHECK_MAX_VALUES`. `jsonChecked`: the caller built `schema` from parts
   * that passed `jsonValueOffence` itself (an action's properties), so it is not walked again.
   */
  compileCheck(schema: unknown, where: string, jsonChecked = false): ValueCheck {
    const { validate, text } = this.compileChecked(schema, where, jsonChecked);
    let check = checkByText.get(text);
    if (check) return check;
    const limits = itemLimits(schema);
    if (limits) check = (value) => failedBoundedCheck(validate, limits, value);
    else {
      const first = this.compileFirstProblem(schema as object, text);
      check = (value) => failedCheck(validate, first, value);
    }
    const { facts, lookup } = this.unionReadingOf(schema as SchemaDocument, text);
    if (facts) {
      const placed = check;
      check = (value) => {
        const failed = placed(value);
        return failed && !failed.firstOnly ? { ...failed, unionFacts: facts, ...(lookup && { unionLookup: lookup(value) }) } : failed;
      };
    }
    checkByText.set(text, check);
    return check;
  }

  /**
   * The facts of `schema`'s unions (whose JSON text is `text`; none without a union) and, when a union's errors may
   * leave ajv's schema paths (a union and a `$ref` in one schema), the union lookup of one failed value, with
   * validators of the branches it checks on their own (the `$ref`s its unions branch to and the branches holding
   * one), compiled once while the schema is in use, as its validators are.
   */
  private unionReadingOf(schema: SchemaDocument, text: string): UnionReading {
    const known = unionReadingByText.get(text);
    if (known) return known;
    // Most schemas hold no union: their text says so without a walk (module init of many tools stays fast).
    if (!text.includes('"anyOf"') && !text.includes('"oneOf"')) return NO_UNIONS;
    const { branchRefs, lookedUp } = unionRefs(schema, [undefined]);
    const holders = lookedUp ? referenceHoldingBranches(schema) : [];
    const facts = unionFactsOf(schema, [undefined], [...branchRefs, ...holders]);
    let reading: UnionReading = { facts };
    if (lookedUp) {
      const branches = this.compileBranchChecks(schema, [...branchRefs, ...holders], this.ajvFor(text));
      reading = { facts, lookup: (value) => unionLookup(schema, undefined, value, (ref) => branches.get(ref), true) };
    }
    unionReadingByText.set(text, reading);
    return reading;
  }

  /**
   * Validators of the union branches a schema's failed union checks on their own (each a local `$ref` or a
   * document pointer), so its problem can be placed in its branch (ajv reports a referenced schema's errors at its
   * own paths).
   */
  private compileBranchChecks(schema: SchemaDocument, refs: readonly string[], ajv: Ajv2020): ReadonlyMap<string, ValidateFunction> {
    if (refs.length === 0) return new Map();
    const key = 'mcp-union-branches:';
    const ids = refs.map((ref) => `${key}${ref}`);
    ajv.addSchema(schema, key);
    try {
      return new Map(refs.map((ref, i) => [ref, ajv.getSchema(ids[i]!)!]));
    } finally {
      // getSchema keeps each reference it resolved: dropped with the schema, so the next schema starts clean.
      for (const id of ids) ajv.removeSchema(id);
      ajv.removeSchema(key);
      ajv.removeSchema(schema);
    }
  }

  /** The first-problem validator of a schema {@link compileChecked} accepted, whose JSON text is `text`. */
  private compileFirstProblem(schema: object, text: string): ValidateFunction {
    const known = firstProblemByText.get(text);
    if (known) return known;
    const ajv = this.ajvFor(text, true);
    try {
      const compiled = ajv.compile(schema);
      firstProblemByText.set(text, compiled);
      return compiled;
    } finally {
      ajv.removeSchema(schema);
    }
  }

  /** The checks and the compilation of {@link compile}, with the schema's text (what both caches are keyed by). */
  private compileChecked(schema: unknown, where: string, jsonChecked = false): { validate: ValidateFunction; text: string } {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw new McpConfigurationError(where, `must be a JSON Schema object${got(schema)}`);
    const notJson = jsonChecked ? undefined : jsonValueOffence(schema);
    if (notJson) throw new McpConfigurationError(where, `is not a JSON Schema this server can build: ${notJson}`);
    const text = JSON.stringify(schema);
    const known = compiledByText.get(text);
    if (known) return { validate: known, text };
    const invalid = metaSchemaProblems(schema, this.ajv);
    if (invalid) throw new McpConfigurationError(where, invalid);
    const unchecked = text.includes('"__proto__"')
      ? firstSubschemaWhere(schema, (node) => isPlainObject(node.properties) && Object.hasOwn(node.properties, '__proto__'))
      : undefined;
    if (unchecked)
      throw new McpConfigurationError(
        where,
        `declares a property named "__proto__" (at ${unchecked.at}/properties), whose value ajv never checks (it skips that name), so whatever a caller sent there would pass: rename the property`,
      );
    const stray = text.includes('"$dynamicRef"') ? strayDynamicRef(schema) : undefined;
    if (stray)
      throw new McpConfigurationError(
        where,
        `$dynamicRef ${quoted(stray.ref, 100)} (at ${stray.at}) names no $dynamicAnchor of a schema around it, so ajv would check the value there against the whole schema it is validating (its root, or a $ref's target), not the one the reference names; write $ref for a JSON pointer or an $anchor, or declare the $dynamicAnchor on a schema around the reference`,
      );
    const cycle = text.includes('"$ref"') ? inPlaceCycle(schema, this.ajv.RULES.all) : undefined;
    if (cycle) throw new McpConfigurationError(where, describeCycle(cycle));
    let validate: ValidateFunction;
    this.unknownFormats = [];
    const ajv = this.ajvFor(text);
    try {
      validate = ajv.compile(schema);
    } catch (thrown) {
      throw new McpConfigurationError(where, `is not a JSON Schema this server can build: ${bounded((thrown as Error)?.message ?? thrown, 300)}`);
    } finally {
      // Each schema stands alone: no other schema's $ref resolves to it, and another may carry the same root $id.
      ajv.removeSchema(schema);
    }
    if ((validate as { $async?: unknown }).$async === true) {
      throw new McpConfigurationError(
        where,
        'declares "$async", an ajv extension that makes its validator return a promise; a request is validated synchronously, so a tool schema may not declare it',
      );
    }
    if (this.unknownFormats.length) {
      const formats = [...new Set(this.unknownFormats)];
      const refused = formats.find((format) => Object.hasOwn(REFUSED_FORMATS, format));
      if (refused !== undefined) throw new McpConfigurationError(where, `uses the format ${JSON.stringify(refused)}, which this server refuses: ${REFUSED_FORMATS[refused]}`);
      // Every unknown one at once (up to UNKNOWN_FORMATS_NAMED): a schema converted from another library may hold several.
      const named = formats.slice(0, UNKNOWN_FORMATS_NAMED).map((format) => JSON.stringify(format));
      if (formats.length > named.length) named.push(`and ${formats.length - named.length} more`);
      throw new McpConfigurationError(
        where,
        `uses the unknown format${formats.length > 1 ? 's' : ''} ${named.join(', ')} (formats are asserted, so an unknown one is refused): remove ${formats.length > 1 ? 'them' : 'it'}, or check the value with a "pattern" (zod writes one beside most of its formats: drop the format in z.toJSONSchema's override); known: ${Object.keys(this.ajv.formats).sort().join(', ')}`,
      );
    }
    for (const line of misspelledKeywordWarnings(where, misspelledKeywords(schema, Object.keys(this.ajv.RULES.keywords)))) logger.warn(line);
    compiledByText.set(text, validate);
    return { validate, text };
  }
}
