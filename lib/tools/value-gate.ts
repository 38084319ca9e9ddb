import { nestingDepth } from '../protocol/nesting.js';
import { bounded } from '../util/bounded.js';
import { isStackOverflow } from '../util/stack-overflow.js';
import { numbersOutOfRange } from '../validation/finite-numbers.js';
import type { CheckedAgainst } from '../validation/optional-property.js';
import type { SchemaCompiler, ValueCheck } from '../validation/schema-compiler.js';
import { describeSchemaErrors } from '../validation/schema-problems.js';
import { compareSegments, dataPath, segmentsIn } from './data-path.js';

/** How many offending data paths a refusal lists; `invalid_count` counts them all. */
const INVALID_LISTED = 10;

/** The longest problem text a refusal carries. */
const PROBLEM_BOUND = 200;

/** One offending location of a value-gate refusal: its data path and what is wrong there. */
export interface InvalidValue {
  readonly path: string;
  readonly problems: readonly string[];
}

/** What the value gate refuses: every offending data path counted, the first ten listed with their problems. */
export interface InvalidValues {
  readonly invalid_count: number;
  readonly invalid: readonly InvalidValue[];
  /** Present (true) when the data was too large to describe every problem of: only the first was looked for. */
  readonly first_only?: true;
  /**
   * Not sent: present when the value nests too deeply for the stack, with the first problem named (`first`) or
   * none, as even the first-problem check could not run (`unchecked`: the one listed problem says so).
   */
  readonly tooDeep?: 'first' | 'unchecked';
}

/**
 * The value gate: every value in a call's data against a schema compiled once at module init, formats asserted.
 * Problems are worded from the schema (`validation/schema-problems.ts`), never by quoting the sent value, so an
 * answer cannot echo a payload back; each is bounded. It meets only data the unknown-key gate passed, which a
 * bounded schema's check relies on (`validation/bounded-schema.ts`).
 * Proven by: test/tools/value-gate.spec.ts
 */
export class ValueGate {
  private constructor(
    private readonly failedCheck: ValueCheck,
    /** The schema checked, and what its refusal reads whether a property is optional in (`objectSchemaAt`). */
    private readonly checked: CheckedAgainst,
  ) {}

  /**
   * Compiles the gate's root at module init (`SchemaCompiler.compileCheck`); `where` names the declaration for a
   * refusal; `jsonChecked` as there. `requiredBefore` names the root's properties a gate before this one requires (an
   * action's `required` and the names of its `requiredOneOf` groups, which its root leaves out): a null sent for one
   * is never worded as an optional property's.
   */
  static build(compiler: SchemaCompiler, root: Record<string, unknown>, where: string, jsonChecked = false, requiredBefore: readonly string[] = []): ValueGate {
    const required = Array.isArray(root.required) ? (root.required as unknown[]) : [];
    const read = requiredBefore.length ? { ...root, required: [...required, ...requiredBefore] } : root;
    return new ValueGate(compiler.compileCheck(root, where, jsonChecked), { document: root, root: read });
  }

  /**
   * Checks `value`; undefined when every value passes. Past `DETAILED_CHECK_MAX_VALUES` values only the first
   * problem is looked for (`first_only`), so one request cannot demand seconds of CPU and a huge heap. Unless
   * `numbersInRange` (the parse step's walk of the body found none), a number out of range is looked for too.
   */
  check(value: unknown, numbersInRange = false): InvalidValues | undefined {
    try {
      return this.invalidValues(value, numbersInRange);
    } catch (thrown) {
      // A recursive schema whose every level holds many checks can overflow the stack well within the nesting a
      // message may have: the caller is told to nest less, rather than the tool faulting.
      if (!isStackOverflow(thrown)) throw thrown;
      const problem = `is nested ${nestingDepth(value)} levels deep, too deep to be checked against its schema`;
      return { invalid_count: 1, invalid: [{ path: '', problems: [problem] }], first_only: true, tooDeep: 'unchecked' };
    }
  }

  private invalidValues(value: unknown, numbersInRange: boolean): InvalidValues | undefined {
    const failed = this.failedCheck(value);
    // A number JSON spells but cannot hold (`1e400`) where the schema types none (an untyped property).
    const { problems: unheld, firstOnly: unheldFirstOnly } = numbersOutOfRange(value, { inRange: numbersInRange });
    if (!failed && unheld.length === 0) return undefined;
    const byPath = new Map<string, { segments: readonly (string | number)[]; problems: string[] }>();
    for (const problem of failed ? describeSchemaErrors(failed.errors, failed.unionLookup, failed.unionFacts, failed.firstOnly, { value, schema: this.checked }) : []) {
      const segments = segmentsIn(value, problem.path);
      const path = dataPath(segments);
      const entry = byPath.get(path) ?? { segments, problems: [] };
      entry.problems.push(bounded(problem.problem, PROBLEM_BOUND));
      byPath.set(path, entry);
    }
    for (const { path: segments, problem } of unheld) {
      const path = dataPath(segments);
      if (!byPath.has(path)) byPath.set(path, { segments, problems: [problem] });
    }
    const sorted = [...byPath].sort((a, b) => compareSegments(a[1].segments, b[1].segments));
    // Past the detailed-check bound on either side, the first problem only: a full listing of the other side would
    // say "fix this one" over ten.
    const firstOnly = failed?.firstOnly === true || unheldFirstOnly;
    const listed = firstOnly ? sorted.slice(0, 1) : sorted;
    return {
      invalid_count: listed.length,
      invalid: listed.slice(0, INVALID_LISTED).map(([path, { problems }]) => ({ path, problems })),
      ...(firstOnly && { first_only: true as const }),
      ...(failed?.tooDeep && { tooDeep: 'first' as const }),
    };
  }
}
