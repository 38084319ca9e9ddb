import { bounded, quoted } from '../util/bounded.js';
import { firstListed } from '../util/first-listed.js';
import { NAMES_LISTED } from '../util/named-registry.js';
import { didYouMean, nearMissesOf, offeredNearMisses } from '../util/near-miss.js';
import { typeNamed } from '../util/type-named.js';
import { jsonTextType, notJsonText } from '../validation/json-text.js';
import { PatternOverflowError, placeOf } from '../validation/pattern-test.js';
import { dataPath } from './data-path.js';
import type { HelpPointer } from './help-pointer.js';
import type { InputSchemaDigest } from './input-schema.js';
import { findUnknownKeys, type FoundUnknownKeys, type KeyNode } from './key-set.js';
import type { ValueGate } from './value-gate.js';

/**
 * The dispatch gates, in the order they run; the first to fire answers with an `isError` result naming the gate
 * under `"error"` and a help pointer under `"help"`. The order is load-bearing: names before types, the action
 * before the data, presence before keys, keys before values (the value gate only meets known keys). What each
 * gate answers: docs/tools.md.
 * Proven by: test/sweeps/dispatch-gates.sweep.e2e-spec.ts (one cell per gate, in the order docs/tools.md documents).
 * @publicApi
 */
export const DISPATCH_GATES = [
  'unknown_arguments',
  'invalid_argument_type',
  'missing_action',
  'unknown_action',
  'missing_required',
  'unsatisfied_required_one_of',
  'unknown_params',
  'invalid_values',
] as const;

/** One dispatch gate; also the `"error"` value of its refusal. @publicApi */
export type DispatchGate = (typeof DISPATCH_GATES)[number];

/** The arguments-level gates: all a tool without action dispatch (help) runs. */
const ARGUMENT_GATES = ['unknown_arguments', 'invalid_argument_type'] as const satisfies readonly DispatchGate[];

/** The data-level gates: the ones that carry the input_schema digest (a plain tool runs two of them, below). */
export const DATA_GATES = ['missing_required', 'unsatisfied_required_one_of', 'unknown_params', 'invalid_values'] as const satisfies readonly DispatchGate[];

/** The two gates a plain tool runs on its arguments (its `required` is the value gate's, as JSON Schema says). */
const PLAIN_TOOL_GATES = ['unknown_params', 'invalid_values'] as const satisfies readonly DispatchGate[];

/** A JSON type as the arguments-level type gate names it. */
export type JsonType = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

/** The arguments vocabulary of a tool: each argument name with its JSON type, in the order they are checked. */
export type ArgumentVocabulary = Readonly<Record<string, JsonType>>;

/** The arguments vocabulary of every action tool. */
const ACTION_ARGUMENTS: ArgumentVocabulary = { action: 'string', data: 'object' };

/** What the data-level gates read for one action (or one plain tool): built once, at module init. */
export interface DataTarget {
  /** The action's name; absent for a plain tool. */
  readonly action?: string;
  /** How refusals open, naming what is checked: `The data of action "create" of tool "tasks"`, or `The arguments object of tool "echo"`. */
  readonly subject: string;
  readonly required: readonly string[];
  readonly requiredOneOf: readonly (readonly string[])[];
  readonly keys: KeyNode | undefined;
  readonly values: ValueGate;
  readonly digest: InputSchemaDigest;
  /** Where the data-level refusals point: help on this action (or this plain tool). */
  readonly pointer: HelpPointer;
}

/** A dispatch-gate refusal: which gate fired, and the tool-dialect payload it answers with. */
export interface GateRefusal {
  readonly gate: DispatchGate;
  readonly payload: Record<string, unknown>;
}

/** A call the dispatch gates let through: the action they resolved (action tools) and the data to run with. */
export interface GatedCall {
  readonly action?: string;
  readonly data: Record<string, unknown>;
}

/** What a tool's dispatch gates decide about one call. */
export type GateOutcome = { readonly refusal: GateRefusal } | GatedCall;

/** The chain's working state: what the earlier gates established for the later ones. */
interface GateState {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly vocabulary: ArgumentVocabulary;
  /** Where the arguments-level and action-level refusals point. */
  readonly pointer: HelpPointer;
  readonly actions?: ReadonlyMap<string, DataTarget>;
  target?: DataTarget;
  data?: Record<string, unknown>;
  /** The request was proved to hold no number out of range: the value gate looks for none. */
  readonly numbersInRange?: boolean;
}

type Answer = Record<string, unknown> | undefined;

const LISTED = 10;
const KEY_BOUND = 64;

/** The JSON type of a value as a caller sent it. */
function jsonType(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const type = typeof value;
  return type === 'string' || type === 'number' || type === 'boolean' ? type : 'object';
}

const quotedList = (list: readonly string[]) => list.map((n) => JSON.stringify(n)).join(', ');
const validActions = (s: GateState) => [...s.actions!.keys()];

function dataAnswer(s: GateState, message: string, fields: object): Answer {
  const t = s.target!;
  const answer: Record<string, unknown> = t.action === undefined ? { message } : { message, action: t.action };
  return Object.assign(answer, fields, { input_schema: t.digest, help: t.pointer });
}

/** Unknown keys as the unknown-key gate's message counts and lists them. */
const unknownKeysListed = (found: FoundUnknownKeys): string =>
  `${found.unknown_count} unknown key(s): ${found.unknown.map((path, i) => path + didYouMean(found.nearMisses[i])).join(', ')}${found.unknown_count > found.unknown.length ? ', …' : ''}`;

/**
 * A required key is most often missing because the caller spelled it otherwise (`first_name` for `firstName`): a
 * missing-key refusal names the keys the unknown-key gate would refuse next, so one retry mends both.
 */
function unknownKeysBeside(s: GateState): string {
  const found = s.target!.keys && findUnknownKeys(s.target!.keys, s.data);
  return found ? `; it also holds ${unknownKeysListed(found)}` : '';
}

/**
 * The counterpart for a plain tool, whose unknown-key gate comes before the value gate that finds a required key
 * missing: its refusal names the root's missing required keys too (an action's were all found present by then).
 */
function missingBeside(s: GateState): string {
  const missing = s.target!.digest.required.filter((name) => !Object.hasOwn(s.data!, name));
  return missing.length ? `; it is also missing required propert${missing.length > 1 ? 'ies' : 'y'} ${quotedList(missing)}` : '';
}

/**
 * What a refusal adds after an unknown argument: that it belongs inside `data` when it is a property of the named
 * action's data (of any action's, when none is named), a flattened call; nothing when it is only another action's;
 * else its near miss `meant` ({@link offeredNearMisses}). An action's property is never offered the argument it
 * nearly spells (`date` is not `data`).
 */
function argumentNote(s: GateState, argument: string, meant: string | undefined): string {
  const declares = (target: DataTarget | undefined) => target?.keys?.properties.has(argument) === true;
  const named = typeof s.args.action === 'string' ? s.actions?.get(s.args.action) : undefined;
  const anyAction = [...(s.actions?.values() ?? [])].some(declares);
  if (named ? declares(named) : anyAction) return ' (it belongs inside "data")';
  return anyAction ? '' : didYouMean(meant);
}

/** Each gate's check: undefined to pass the call on, or the refusal's fields beyond `"error"`. */
const CHECKS: { readonly [G in DispatchGate]: (s: GateState) => Answer } = {
  unknown_arguments(s) {
    const unknown = Object.keys(s.args)
      .filter((k) => !Object.hasOwn(s.vocabulary, k))
      .sort();
    if (unknown.length === 0) return undefined;
    const first = unknown.slice(0, LISTED);
    const listed = first.map((k) => bounded(k, KEY_BOUND));
    const meant = offeredNearMisses(first.map((name) => ({ name, among: nearMissesOf(s.vocabulary), sentIn: s.args })));
    const spelled = listed.map((k, i) => quoted(k, KEY_BOUND + 2) + argumentNote(s, first[i]!, meant[i]));
    return {
      message: `Unknown argument(s) ${spelled.join(', ')} in the call to tool "${s.tool}"; it takes only ${quotedList(Object.keys(s.vocabulary))}.`,
      unknown_count: unknown.length,
      unknown: listed,
      allowed: Object.keys(s.vocabulary),
      help: s.pointer,
    };
  },
  invalid_argument_type(s) {
    const invalid = Object.entries(s.vocabulary)
      .filter(([name, expected]) => Object.hasOwn(s.args, name) && jsonType(s.args[name]) !== expected)
      .map(([name, expected]) => ({ argument: name, expected, received: jsonType(s.args[name]) }));
    if (invalid.length === 0) return undefined;
    const sentences = invalid.map((i) => {
      const text = jsonTextType(s.args[i.argument]);
      return `argument "${i.argument}" must be ${typeNamed(i.expected)}, ${text === i.expected ? notJsonText(text) : `not ${typeNamed(i.received)}`}`;
    });
    return { message: `In the call to tool "${s.tool}", ${sentences.join('; ')}.`, invalid, help: s.pointer };
  },
  missing_action(s) {
    if (Object.hasOwn(s.args, 'action')) return undefined;
    const listed = actionsListed(validActions(s));
    return { message: `No action given: a call to tool "${s.tool}" names one in "action", out of: ${listed.text}.`, ...listed.data, help: s.pointer };
  },
  unknown_action(s) {
    const name = s.args.action as string;
    const target = s.actions!.has(name) ? s.actions!.get(name) : undefined;
    if (target) {
      s.target = target;
      s.data = (s.args.data ?? {}) as Record<string, unknown>;
      return undefined;
    }
    return unknownActionAnswer(s.tool, name, s.actions!, s.pointer);
  },
  missing_required(s) {
    const missing = s.target!.required.filter((n) => !Object.hasOwn(s.data!, n));
    if (missing.length === 0) return undefined;
    return dataAnswer(s, `${s.target!.subject} is missing required propert${missing.length > 1 ? 'ies' : 'y'} ${quotedList(missing)}${unknownKeysBeside(s)}.`, {
      missing,
    });
  },
  unsatisfied_required_one_of(s) {
    const groups = s.target!.requiredOneOf;
    if (groups.length === 0 || groups.some((g) => g.every((n) => Object.hasOwn(s.data!, n)))) return undefined;
    return dataAnswer(
      s,
      `${s.target!.subject} needs every property of at least one of these groups: ${groups.map((g) => `[${quotedList(g)}]`).join(' or ')}${unknownKeysBeside(s)}.`,
      { required_one_of: groups },
    );
  },
  unknown_params(s) {
    const found = s.target!.keys && findUnknownKeys(s.target!.keys, s.data);
    if (!found) return undefined;
    const { nearMisses: _nearMisses, ...fields } = found;
    return dataAnswer(s, `${s.target!.subject} holds ${unknownKeysListed(found)}${missingBeside(s)}. "allowed" lists the keys each object on the way admits.`, fields);
  },
  invalid_values(s) {
    const checked = s.target!.values.check(s.data, s.numbersInRange);
    if (!checked) return undefined;
    const { tooDeep, ...found } = checked;
    // Each listed location with its first problem, so a client that shows only the message still shows what to fix;
    // the object itself (path "") is the subject the message names, so its problem stands alone.
    const listed = found.invalid.map((i) => `${i.path ? `${i.path}: ` : ''}${i.problems[0]}`).join('; ');
    const subject = s.target!.subject;
    let message: string;
    if (tooDeep === 'unchecked') message = `${subject} ${listed}: send it nested less deeply and retry.`;
    else if (found.first_only)
      message = `${subject} holds at least one invalid value: ${listed} (the data is too ${tooDeep ? 'deeply nested' : 'large'} to look for every problem; fix this one and retry).`;
    else message = `${subject} holds ${found.invalid_count} invalid value(s): ${listed}${found.invalid_count > found.invalid.length ? '; …' : ''}.`;
    return dataAnswer(s, message, found);
  },
};

function run(gates: readonly DispatchGate[], state: GateState): GateRefusal | undefined {
  for (const gate of DISPATCH_GATES) {
    if (!gates.includes(gate)) continue;
    let answer: Answer;
    try {
      answer = CHECKS[gate](state);
    } catch (thrown) {
      if (!(thrown instanceof PatternOverflowError)) throw thrown;
      return { gate: 'invalid_values', payload: Object.assign({ error: 'invalid_values' }, unmatchedAnswer(state, thrown)) };
    }
    if (answer) return { gate, payload: Object.assign({ error: gate }, answer) };
  }
  return undefined;
}

/**
 * A key or value too long to be matched against its schema's pattern (the unknown-key gate's or the value gate's):
 * refused as an invalid value, where it sits, as the first problem found.
 */
function unmatchedAnswer(s: GateState, overflow: PatternOverflowError): Answer {
  const path = dataPath(placeOf(s.data, overflow.sent) ?? []);
  const invalid = [{ path, problems: [overflow.message] }];
  const listed = `${path ? `${path}: ` : ''}${overflow.message}`;
  return dataAnswer(s, `${s.target!.subject} holds at least one invalid value: ${listed} (send it shorter and retry).`, { invalid_count: 1, invalid, first_only: true });
}

/** The unknown-action answer, shared by the `unknown_action` gate and help's action level so both speak one dialect. */
export function unknownActionAnswer(tool: string, action: string, actions: ReadonlyMap<string, unknown>, pointer: HelpPointer): Record<string, unknown> {
  const valid = [...actions.keys()];
  const listed = actionsListed(valid);
  const list = valid.length ? `Valid actions: ${listed.text}.` : `Tool "${tool}" has no actions.`;
  const meant = didYouMean(nearMissesOf(actions).meant(action));
  return { message: `Unknown action ${quoted(action, KEY_BOUND + 2)}${meant} for tool "${tool}". ${list}`, action: bounded(action, KEY_BOUND), ...listed.data, help: pointer };
}

/** Valid action names as a refusal lists them: the first {@link NAMES_LISTED}, and how many there are when that cuts the list. */
function actionsListed(valid: readonly string[]): { readonly text: string; readonly data: Record<string, unknown> } {
  return {
    text: firstListed(valid, NAMES_LISTED, { counted: true }),
    data: { valid_actions: valid.slice(0, NAMES_LISTED), ...(valid.length > NAMES_LISTED && { valid_actions_count: valid.length }) },
  };
}

/** The whole chain, for an action tool: a refusal, or the action and the caller's data (as received) to run. */
export function runDispatchGates(
  tool: string,
  args: Record<string, unknown>,
  actions: ReadonlyMap<string, DataTarget>,
  pointer: HelpPointer,
  numbersInRange = false,
): GateOutcome {
  const state: GateState = { tool, args, vocabulary: ACTION_ARGUMENTS, pointer, actions, numbersInRange };
  const refusal = run(DISPATCH_GATES, state);
  return refusal ? { refusal } : { action: state.target!.action, data: state.data! };
}

/** The arguments-level gates alone, for a tool whose arguments are a fixed vocabulary (help). */
export function checkArguments(tool: string, args: Record<string, unknown>, vocabulary: ArgumentVocabulary, pointer: HelpPointer): GateOutcome {
  const refusal = run(ARGUMENT_GATES, { tool, args, vocabulary, pointer });
  return refusal ? { refusal } : { data: args };
}

/** The data-level gates a plain tool's arguments meet (unknown keys at any depth, then values). */
export function checkPlainArguments(tool: string, args: Record<string, unknown>, target: DataTarget, numbersInRange = false): GateOutcome {
  const refusal = run(PLAIN_TOOL_GATES, { tool, args, vocabulary: {}, pointer: target.pointer, target, data: args, numbersInRange });
  return refusal ? { refusal } : { data: args };
}
