import { McpConfigurationError, declaredName, got, nearMissHint } from '../errors/mcp-configuration.error.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { jsonValueOffence } from '../validation/json-value.js';
import type { SchemaCompiler } from '../validation/schema-compiler.js';
import { closeProperties, dataKeyNode, findUnknownKeys, schemaOffence, type KeyNode } from './key-set.js';
import { rootReference } from './root-reference.js';
import type { JsonSchema, McpActionOptions, McpActionSchema } from './tool.interfaces.js';
import { ValueGate } from './value-gate.js';

/** The keys an action schema may hold, in the TS spelling (its closed vocabulary). @publicApi */
export const ACTION_SCHEMA_KEYS = [
  'description',
  'properties',
  'required',
  'requiredOneOf',
  'defaults',
  'notes',
  'related',
  'examples',
] as const satisfies readonly (keyof McpActionSchema)[];

/**
 * Every key `@McpAction` takes: the action schema's, with the action's `name` and task mode, which the explorer takes
 * out before the schema reaches {@link validateActionSchema}. A refusal of an unknown key lists these, as the caller
 * wrote them all in one object.
 */
const ACTION_OPTION_KEYS: readonly string[] = ['name', ...ACTION_SCHEMA_KEYS, 'taskSupport', 'taskStart'] satisfies readonly (keyof McpActionOptions)[];

/** An action schema after module init: every optional list and map filled in, every rule checked. */
export interface ValidatedActionSchema {
  readonly description: string;
  readonly properties: Readonly<Record<string, JsonSchema>>;
  readonly required: readonly string[];
  readonly requiredOneOf: readonly (readonly string[])[];
  readonly defaults: Readonly<Record<string, unknown>>;
  readonly notes?: string;
  readonly related?: readonly string[];
  readonly examples?: readonly Record<string, unknown>[];
}

/** One action as module init wired it in: its name, its checked schema, and the two data-level gates built from it. */
export interface ValidatedAction {
  readonly name: string;
  readonly schema: ValidatedActionSchema;
  /** The schema's properties each closed (`closeSchema`): what the value gate checks and refusals and help publish. */
  readonly closedProperties: Readonly<Record<string, JsonSchema>>;
  /** The unknown-key gate's tree for this action's data. */
  readonly keys: KeyNode;
  /** The value gate's compiled root for this action's data. */
  readonly values: ValueGate;
}

const NEWLINE = /[\n\r\u2028\u2029]/;
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((e) => typeof e === 'string');
const names = (list: readonly string[]) => `[${list.map((n) => JSON.stringify(n)).join(', ')}]`;

/**
 * Validates one action schema at module init and owns the action-schema invariant: a key outside
 * {@link ACTION_SCHEMA_KEYS} is refused, and every key inside it reaches a check. Each refusal is a
 * `McpConfigurationError` naming tool, action and offence; the full list is in docs/tools.md.
 * Proven by: test/tools/module-init-refusals.spec.ts
 */
export function validateActionSchema(compiler: SchemaCompiler, tool: string, name: unknown, declared: unknown): ValidatedAction {
  const where = `tool "${tool}", action ${declaredName(name)}`;
  const refuse = (offence: string): never => {
    throw new McpConfigurationError(where, offence);
  };
  if (typeof name !== 'string' || name === '') refuse(`an action name must be a non-empty string${got(name)}`);
  const action = name as string;
  if (NEWLINE.test(action)) refuse('the action name contains a newline; action summaries are joined by newlines, so neither half of one may hold one');
  if (!isPlainObject(declared)) return refuse(`the action schema must be an object${got(declared)}`);
  const schema = declared as Record<string, unknown>;

  const unknown = Object.keys(schema).filter((key) => !(ACTION_SCHEMA_KEYS as readonly string[]).includes(key));
  if (unknown.length) {
    const spelled = unknown.map((key) => `${JSON.stringify(key)}${nearMissHint(key, ACTION_OPTION_KEYS)}`).join(', ');
    refuse(`the action schema has unknown key(s) ${spelled}; allowed: ${ACTION_OPTION_KEYS.join(', ')}`);
  }

  const { description, properties } = schema;
  if (typeof description !== 'string' || description === '') refuse(`description must be a non-empty string${got(description)}`);
  if (NEWLINE.test(description as string))
    refuse('description contains a newline; action summaries are joined by newlines, so a description is one line (put long text in notes)');
  if (properties === undefined) refuse('properties is missing (an action with no data declares properties: {})');
  const notJson = jsonValueOffence(properties, ['properties']);
  if (notJson) refuse(`properties holds a value JSON cannot carry, ${notJson}`);
  const badShape = schemaOffence({ properties });
  if (badShape) refuse(`properties is malformed ${badShape}`);
  const atRoot = rootReference(properties as Record<string, unknown>);
  if (atRoot)
    refuse(
      `properties refer to "#" at ${atRoot}: there "#" is the action's data object, which the library builds from properties alone, so required would ` +
        'not hold below the top; give the recursive schema its own "$id" (inside it "#" is that schema), or declare a plain tool',
    );
  const declaredNames = new Set(Object.keys(properties as object));
  const undeclared = (list: readonly string[]) => list.filter((n) => !declaredNames.has(n));

  const required = schema.required ?? [];
  if (!isStringList(required)) refuse(`required must be a list of property names${got(required)}`);
  const requiredList = required as string[];
  if (undeclared(requiredList).length) refuse(`required names ${names(undeclared(requiredList))}, not declared in properties`);
  if (new Set(requiredList).size !== requiredList.length) refuse('required names a property more than once');

  const groups = schema.requiredOneOf ?? [];
  if (!Array.isArray(groups) || !groups.every((g) => isStringList(g) && g.length > 0))
    refuse(`requiredOneOf must be a list of non-empty lists of property names${got(groups)}`);
  const groupList = groups as string[][];
  groupList.forEach((group) => {
    if (undeclared(group).length) refuse(`requiredOneOf group ${names(group)} names ${names(undeclared(group))}, not declared in properties`);
    if (new Set(group).size !== group.length) refuse(`requiredOneOf group ${names(group)} names a property more than once`);
    if (group.every((n) => requiredList.includes(n))) refuse(`requiredOneOf group ${names(group)} is satisfied by required alone, so requiredOneOf could never refuse a call`);
  });
  groupList.forEach((a, i) =>
    groupList.forEach((b, j) => {
      if (i === j || !b.every((n) => a.includes(n))) return;
      if (a.length === b.length) {
        if (i < j) refuse(`requiredOneOf groups ${names(a)} and ${names(b)} name the same properties`);
      } else refuse(`requiredOneOf group ${names(a)} is a strict superset of group ${names(b)}, so it can never be the one that decides`);
    }),
  );

  const defaults = schema.defaults ?? {};
  if (!isPlainObject(defaults)) refuse(`defaults must be a map of property name to value${got(defaults)}`);
  const defaultsMap = defaults as Record<string, unknown>;
  const defaultsNotJson = jsonValueOffence(defaultsMap, ['defaults']);
  if (defaultsNotJson) refuse(`defaults holds a value JSON cannot carry, ${defaultsNotJson}`);
  const defaultKeys = Object.keys(defaultsMap);
  if (undeclared(defaultKeys).length) refuse(`defaults names ${names(undeclared(defaultKeys))}, not declared in properties`);
  const alsoRequired = defaultKeys.filter((k) => requiredList.includes(k));
  if (alsoRequired.length) refuse(`defaults names ${names(alsoRequired)}, which required also names; a required property is always sent, so its default could never apply`);

  if (schema.notes !== undefined && typeof schema.notes !== 'string') refuse(`notes must be a string${got(schema.notes)}`);
  if (schema.related !== undefined && !isStringList(schema.related)) refuse(`related must be a list of action names${got(schema.related)}`);
  if (schema.examples !== undefined) {
    if (!Array.isArray(schema.examples) || !schema.examples.every(isPlainObject)) refuse(`examples must be a list of example data objects${got(schema.examples)}`);
    const examplesNotJson = jsonValueOffence(schema.examples, ['examples']);
    if (examplesNotJson) refuse(`examples holds a value JSON cannot carry, ${examplesNotJson}`);
  }

  const typedProperties = properties as Record<string, JsonSchema>;
  const closedProperties = closeProperties(typedProperties);
  // Closing copies the properties, which passed the JSON-value check above, and adds only `false`s.
  // required and requiredOneOf are the data gates' before it: the value gate's root leaves them out, its refusal not.
  const values = ValueGate.build(compiler, { type: 'object', properties: closedProperties }, `${where}, properties`, true, [...requiredList, ...groupList.flat()]);
  const keys = dataKeyNode(typedProperties);
  const strayDefaults = findUnknownKeys(keys, defaultsMap);
  if (strayDefaults) refuse(`defaults carries key(s) the unknown-key gate would refuse from a caller: ${strayDefaults.unknown.join(', ')}`);
  const badDefaults = values.check(defaultsMap);
  if (badDefaults) refuse(`defaults fail their properties' schemas: ${badDefaults.invalid.map((v) => `${v.path}: ${v.problems.join('; ')}`).join(', ')}`);
  // An example is a call a reader may copy: it must pass the gates a caller's data meets.
  ((schema.examples ?? []) as Record<string, unknown>[]).forEach((example, i) => {
    const missing = requiredList.filter((n) => !Object.hasOwn(example, n));
    if (missing.length) refuse(`examples[${i}] lacks required ${names(missing)}`);
    if (groupList.length && !groupList.some((group) => group.every((n) => Object.hasOwn(example, n)))) refuse(`examples[${i}] satisfies no requiredOneOf group`);
    const stray = findUnknownKeys(keys, example);
    if (stray) refuse(`examples[${i}] carries key(s) the unknown-key gate would refuse: ${stray.unknown.join(', ')}`);
    const bad = values.check(example);
    if (bad) refuse(`examples[${i}] fails the properties' schemas: ${bad.invalid.map((v) => `${v.path}: ${v.problems.join('; ')}`).join(', ')}`);
  });

  const validated: ValidatedActionSchema = {
    description: description as string,
    properties: typedProperties,
    required: requiredList,
    requiredOneOf: groupList,
    defaults: defaultsMap,
    ...(schema.notes !== undefined && { notes: schema.notes as string }),
    ...(schema.related !== undefined && { related: schema.related as string[] }),
    ...(schema.examples !== undefined && { examples: schema.examples as Record<string, unknown>[] }),
  };
  return { name: action, schema: validated, closedProperties, keys, values };
}
