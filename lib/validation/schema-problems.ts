import type { ErrorObject } from 'ajv';

import type { EditBudget } from '../util/edit-distance.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { pointerSegments, unescapedSegment, valueAt } from '../util/json-pointer.js';
import { NEAR_MISS_STEPS, didYouMean, nearMissesOf, offeredNearMisses } from '../util/near-miss.js';
import { typeNamed } from '../util/type-named.js';
import { TRYING, errorsIn, pointerOf, topLevel, type ErrorsAt } from './error-tree.js';
import { jsonTextType, notJsonText } from './json-text.js';
import { KEYWORD_WORDINGS, NOT_ALLOWED, VALUES_LISTED, listedValues, refusedProperty, wordProblem, type KeywordParams } from './keyword-wordings.js';
import type { SchemaDocument } from './local-ref.js';
import { isOptionalIn, objectSchemaAt, type CheckedAgainst, type ObjectSchema } from './optional-property.js';
import { placedSchema } from './placed-schema.js';
import type { UnionFactsOf, UnionLookup } from './union-branches.js';
import { branchesLeft, unionTrials, type UnionTrials } from './union-trials.js';

/**
 * One problem, worded here from the failing keyword and schema (ajv's messages never reach the wire, and no
 * caller-sent value is quoted); a caller-sent property name is a path segment, so it is bounded like one.
 * @publicApi
 */
export interface SchemaProblem {
  /** Segments from the validated value's root to the offending value. */
  readonly path: readonly (string | number)[];
  /** One sentence fragment, for example `must be an integer`. */
  readonly problem: string;
}

/**
 * The errors of the one branch the value can be meant for: every other branch (if any) is ruled out by its
 * discriminator or its JSON type, this one by neither; or, of several left so, the only one whose required
 * properties the value all has.
 */
function pickedBranch(trials: UnionTrials): ErrorsAt | undefined {
  const { branches, incomplete } = trials;
  const left = branchesLeft(trials);
  const complete = left.length > 1 ? left.filter((branch) => !incomplete.has(branch)) : left;
  return complete.length === 1 ? branches.get(complete[0]!) : undefined;
}

/**
 * When every branch is ruled out, those of the value's JSON type at one property (a discriminator no branch admits,
 * such as zod's discriminated union sent an unknown kind): that property's problem, naming the values they admit.
 */
function unknownDiscriminator({ branches, ruledOut, mistyped, branchTypes }: UnionTrials, union: ErrorObject): Described | undefined {
  if (ruledOut.size === 0 || new Set([...ruledOut.keys(), ...mistyped]).size !== branches.size) return undefined;
  const [first, ...others] = [...ruledOut.values()];
  const othersAt = others.map((errors) => new Set(errors.map((e) => e.instancePath)));
  const pointer = first!.map((e) => e.instancePath).find((p) => othersAt.every((at) => at.has(p)));
  if (pointer === undefined) return undefined;
  const admitted = new Map<string, unknown>();
  for (const errors of ruledOut.values())
    for (const error of errors.filter((e) => e.instancePath === pointer)) {
      const params = error.params as { allowedValue?: unknown; allowedValues?: unknown[] };
      for (const value of error.keyword === 'const' ? [params.allowedValue] : (params.allowedValues ?? [])) admitted.set(JSON.stringify(value), value);
    }
  const values = [...admitted.values()];
  const { problem } = values.length === 1 ? KEYWORD_WORDINGS.const({ allowedValue: values[0] }) : KEYWORD_WORDINGS.enum({ allowedValues: values });
  // At the union's own place, the branches of another type that fix no value take a type: named after the values.
  const types = pointer === pointerOf(union) ? [...new Set([...mistyped].filter((branch) => !ruledOut.has(branch)).flatMap((branch) => branchTypes.get(branch) ?? []))] : [];
  return { path: pointerSegments(pointer), problem: types.length ? `${problem}, or ${types.map(typeNamed).join(' or ')}` : problem, pattern: false };
}

/**
 * When every branch of the value's JSON type that its discriminator does not rule out requires properties the value
 * lacks: those they all require (zod's discriminated union sent no discriminator), else what each would need, as
 * alternatives (`missing required property "id" or "name"`; `…of one of its shapes: ["a", "b"] or ["c"]`; at most
 * {@link VALUES_LISTED} of them).
 */
function branchesMissing(trials: UnionTrials, union: ErrorObject): Described | undefined {
  const { incomplete } = trials;
  // A branch its discriminator rules out asks for another value, not for a property.
  const typed = branchesLeft(trials);
  if (typed.length === 0 || union.propertyName !== undefined || !typed.every((branch) => incomplete.has(branch))) return undefined;
  const missing = typed.map((branch) => [...incomplete.get(branch)!]);
  const common = missing[0]!.filter((name) => missing.every((names) => names.includes(name)));
  const at = pointerSegments(union.instancePath);
  if (common.length > 0) return missingProblem(at, common);
  const single = missing.every((names) => names.length === 1);
  const alternatives = [...new Set(missing.map((names) => (single ? JSON.stringify(names[0]) : `[${names.map((name) => JSON.stringify(name)).join(', ')}]`)))];
  if (alternatives.length > VALUES_LISTED) return undefined;
  const problem = single ? `missing required property ${alternatives.join(' or ')}` : `missing the required properties of one of its shapes: ${alternatives.join(' or ')}`;
  return { path: at, problem, pattern: false, alternatives: [{ wording: problem, needs: missing }] };
}

/**
 * When every branch of the value's JSON type that its discriminator does not rule out fails only by the `type` of one
 * and the same value below it (zod's union of objects whose field differs in type): that value's problem, naming the
 * types the branches take there (`id: must be a string or a number`).
 */
function typesApart(trials: UnionTrials, sent: Sent | undefined): Described | undefined {
  const left = branchesLeft(trials);
  if (left.length < 2) return undefined;
  let first: ErrorObject | undefined;
  const types = new Set<string>();
  for (const branch of left) {
    for (const error of errorsIn(trials.branches.get(branch)!)) {
      if (error.keyword !== 'type' || error.propertyName !== undefined || (first?.instancePath ?? error.instancePath) !== error.instancePath) return undefined;
      first ??= error;
      for (const type of String((error.params as { type?: unknown }).type).split(',')) types.add(type);
    }
  }
  return first && { path: pointerSegments(first.instancePath), problem: typeProblem([...types].join(','), first, sent), pattern: false };
}

/** Keywords that refuse a property the object's schema does not take. */
const REFUSING = new Set(['additionalProperties', 'unevaluatedProperties']);

/**
 * When every branch of the value's JSON type that its discriminator does not rule out fails only by refusing
 * properties the value has (strict objects sent the properties of several): those every such branch refuses, each
 * not an allowed property; and unless dropping those alone leaves a branch matched, each other refused property as
 * one that belongs to another shape than a property beside it. Names stay path segments: the caller sent them.
 */
function mixedShapes(trials: UnionTrials, union: ErrorObject): Described[] | undefined {
  const left = branchesLeft(trials);
  if (left.length < 2 || union.propertyName !== undefined) return undefined;
  const refused: (readonly string[])[] = [];
  for (const branch of left) {
    const errors = errorsIn(trials.branches.get(branch)!);
    if (errors.length === 0 || !errors.every((e) => REFUSING.has(e.keyword) && e.instancePath === union.instancePath && e.propertyName === undefined)) return undefined;
    refused.push(errors.map((e) => refusedProperty(e.params as KeywordParams)));
  }
  const at = pointerSegments(union.instancePath);
  const everywhere = refused[0]!.filter((name) => refused.every((names) => names.includes(name)));
  const rest = refused.map((names) => names.filter((name) => !everywhere.includes(name)));
  const mixed = rest.some((names) => names.length === 0) ? [] : [...new Set(rest.flat())];
  return [
    ...everywhere.map((name) => ({ path: [...at, name], problem: NOT_ALLOWED, pattern: false })),
    ...mixed.map((name) => ({ path: [...at, name], problem: MIXED_SHAPES, pattern: false })),
  ];
}

/** The problem of a property one allowed shape of a union takes, sent beside another shape's. */
const MIXED_SHAPES = "belongs to another allowed shape than a property sent beside it; send one shape's properties only";

/** The problem of an object missing the required properties `names`: one, or several listed as one problem. */
function missingWording(names: readonly string[]): string {
  return names.length === 1 ? KEYWORD_WORDINGS.required({ missingProperty: names[0] }).problem : `missing required properties ${listedValues(names)}`;
}

/** {@link missingWording} at `path`, its names kept so that another such problem there can join it. */
function missingProblem(path: readonly (string | number)[], names: readonly string[]): Described {
  return { path, problem: missingWording(names), pattern: false, missing: names };
}

/**
 * One missing-properties problem per location: a union's (its picked branch's, what its branches all miss, or what
 * each would need) and a `required` beside it join the first of them, so a message showing a location's first
 * problem names them all (`missing required property "kind"; also missing required property "id" or "url"`). A
 * union's alternatives go when one of them needs only properties already named: sending those satisfies it.
 */
function joinMissing(problems: readonly Described[]): Described[] {
  const first = new Map<string, number>();
  const joined: Described[] = [];
  for (const problem of problems) {
    const key = JSON.stringify(problem.path);
    const missing = problem.missing !== undefined || problem.alternatives !== undefined;
    const at = missing ? first.get(key) : undefined;
    if (at === undefined) {
      if (missing) first.set(key, joined.length);
      joined.push(problem);
      continue;
    }
    const names = [...new Set([...(joined[at]!.missing ?? []), ...(problem.missing ?? [])])];
    const alternatives = [...(joined[at]!.alternatives ?? []), ...(problem.alternatives ?? [])].filter(
      (alternative, index, all) =>
        all.findIndex((other) => other.wording === alternative.wording) === index && !alternative.needs.some((need) => need.every((name) => names.includes(name))),
    );
    const wording = [...(names.length ? [missingWording(names)] : []), ...alternatives.map((alternative) => alternative.wording)].join('; also ');
    joined[at] = { path: problem.path, problem: wording, pattern: false, missing: names, alternatives };
  }
  return joined;
}

/** When the value is of no branch's JSON type: the types they take (`must be a string or an integer`). */
function noBranchType({ branches, mistyped, branchTypes }: UnionTrials, union: ErrorObject, sent: Sent | undefined): Described | undefined {
  if (mistyped.size === 0 || mistyped.size !== branches.size || union.propertyName !== undefined) return undefined;
  const wanted = new Set([...branchTypes.values()].flat()); // each type once, in branch order
  return { path: pointerSegments(union.instancePath), problem: typeProblem([...wanted].join(','), union, sent), pattern: false };
}

/**
 * Turns ajv's errors into problems, in ajv's order without duplicates, except that a location's `pattern` problem
 * comes after its others: beside a format (zod writes both) the format says it in words, and a refusal's message
 * shows a location's first problem. A failing `anyOf`/`oneOf`/`contains` stands for its trials (one line per
 * location, not per branch), unless its value picks one branch (its discriminator or JSON type rules out every
 * other, or it is the only one left whose required properties the value has), whose problems then stand for it; or
 * its discriminator is admitted by none, its JSON type is no branch's, or every branch left misses properties, whose
 * problem (what the branches admit, or need) then does; or every branch left fails only by the type of one value
 * below it, whose problem names their types; or every branch left only refuses properties the value has, each of
 * which is then named. Keywords beside it keep theirs, so every offence counts. `lookup` places the errors
 * ajv's schema paths do not (those of branches that are or hold a `$ref`, and of a recursion's inner levels); `facts`
 * tell an exact union's trials from what precedes them and name its discriminators; `firstOnly` says each branch
 * reported its first problem only; `sent`, when the value is a caller's, is that value and, when known, the schema it
 * was checked against (see {@link Reading}).
 */
export function describeSchemaErrors(
  errors: readonly ErrorObject[] | null | undefined,
  lookup?: UnionLookup,
  facts?: UnionFactsOf,
  firstOnly = false,
  sent?: { readonly value: unknown; readonly schema?: CheckedAgainst },
): SchemaProblem[] {
  if (!errors?.length) return [];
  const described = describeInOrder(topLevel(errors, facts), { lookup, facts, firstOnly, sent: sent && { ...sent, budget: { steps: NEAR_MISS_STEPS }, holders: new Map() } });
  if (!described.some((d) => d.pattern)) return described.map(({ path, problem }) => ({ path, problem }));
  // Grouped by location, in the order locations first appear; in each, the pattern problems last.
  const byLocation = new Map<string, Described[]>();
  for (const d of described) {
    const key = JSON.stringify(d.path);
    const group = byLocation.get(key) ?? [];
    group.push(d);
    byLocation.set(key, group);
  }
  return [...byLocation.values()].flatMap((group) => [...group.filter((d) => !d.pattern), ...group.filter((d) => d.pattern)]).map(({ path, problem }) => ({ path, problem }));
}

/**
 * A problem, marked when its keyword is `pattern`; a missing-properties one with the names it lists, or the
 * alternatives it holds (what one of a union's branches would need).
 */
type Described = SchemaProblem & { readonly pattern: boolean; readonly missing?: readonly string[]; readonly alternatives?: readonly MissingAlternatives[] };

/** A union's missing-properties alternatives: their wording, and the properties each branch needs. */
interface MissingAlternatives {
  readonly wording: string;
  readonly needs: readonly (readonly string[])[];
}

/**
 * How one list of errors is read: its unions' lookup and facts, whether it came from a first-only check, and the
 * value checked when it is a caller's: a misspelled enum value is offered its near miss (the lookups sharing one
 * budget), an object sent as its JSON text is named so, and null sent for a property its object's schema (read in
 * `schema`, when given) leaves optional; the value itself is never quoted.
 */
interface Reading {
  readonly lookup: UnionLookup | undefined;
  readonly facts: UnionFactsOf | undefined;
  readonly firstOnly: boolean;
  readonly sent?: { readonly value: unknown; readonly schema?: CheckedAgainst; readonly budget: EditBudget; readonly holders: Map<string, Holder> };
}

/**
 * The object or array that holds an error's location in the caller's value, read once for every error below it: a
 * wide object deep in a recursion fails once per property, and a walk from the root for each cost O(errors x depth).
 */
interface Holder {
  readonly segments: readonly (string | number)[];
  readonly value: unknown;
  /** Its schema as `objectSchemaAt` reads it, once needed (null: the walk cannot say). */
  schema?: ObjectSchema | null;
}

/** The problems of one level's errors in ajv's order (see {@link describeSchemaErrors}), `pattern` ones marked. */
function describeInOrder(level: ErrorsAt, reading: Reading, inBranch = false): Described[] {
  const errors = errorsIn(level);
  const refusedMeant = reading.sent ? refusedNearMisses(errors, reading.sent) : undefined;
  const namedKeys = keysNamed(errors);
  const missingAt = missingByLocation(errors);
  const seen = new Set<string>();
  const problems: Described[] = [];
  const keep = (described: readonly Described[]): void => {
    for (const problem of described) {
      const key = JSON.stringify([problem.path, problem.problem]);
      if (!seen.has(key)) problems.push(problem);
      seen.add(key);
    }
  };
  for (const [position, error] of errors.entries()) {
    const tried = TRYING.has(error.keyword) ? unionTrials(level.tree, level.members[position]!, reading.lookup, reading.facts) : undefined;
    if (tried) {
      const union = readUnion(tried, error, reading, inBranch);
      keep(union.before);
      if (union.standIns) {
        keep(union.standIns);
        continue;
      }
    }
    if (error.keyword === 'propertyNames' && namedKeys.has(JSON.stringify([error.instancePath, (error.params as { propertyName?: unknown }).propertyName]))) continue;
    if (error.keyword === 'required' && error.propertyName === undefined) {
      // Worded once, with the location's first: the others are in it.
      const missing = missingAt.get(error.instancePath);
      if (!missing) continue;
      missingAt.delete(error.instancePath);
      problems.push(missingProblem(pointerSegments(error.instancePath), [...new Set(missing)]));
      continue;
    }
    keep([ownProblem(error, reading, refusedMeant?.get(error))]);
  }
  return joinMissing(problems);
}

/**
 * The near miss of each property an `additionalProperties`/`unevaluatedProperties` error refuses, among those its
 * object's schema names in `properties` ({@link offeredNearMisses}: the refused properties of one object together).
 */
function refusedNearMisses(errors: readonly ErrorObject[], sent: Sent): Map<ErrorObject, string> | undefined {
  const refusing = errors.filter((e) => REFUSING.has(e.keyword) && e.propertyName === undefined);
  if (refusing.length === 0 || sent.schema === undefined) return undefined;
  const refusedAt = new Map<string, Set<string>>();
  for (const e of refusing) refusedAt.set(e.instancePath, (refusedAt.get(e.instancePath) ?? new Set()).add(refusedProperty(e.params as KeywordParams)));
  // The errors of one object under one keyword share its schema: read once (an object may refuse a thousand keys).
  const placed = new Map<string, { object: unknown; properties: Readonly<Record<string, unknown>> | undefined }>();
  const unknown = refusing.flatMap((e) => {
    const key = JSON.stringify([e.instancePath, e.schemaPath]);
    let at = placed.get(key);
    if (!at) {
      const object = sentAt(e, sent);
      at = { object, properties: isPlainObject(object) ? closedProperties(e, sent.schema!.document, object, refusedAt.get(e.instancePath)!) : undefined };
      placed.set(key, at);
    }
    return at.properties ? [{ error: e, name: refusedProperty(e.params as KeywordParams), among: nearMissesOf(at.properties), sentIn: at.object as object }] : [];
  });
  const meant = offeredNearMisses(unknown, sent.budget);
  return new Map(unknown.flatMap(({ error }, i) => (meant[i] === undefined ? [] : [[error, meant[i]] as const])));
}

/**
 * The `properties` of the closed object schema `error` comes from ({@link placedSchema}), but those declared `false`,
 * or undefined; the schema must also account for the object sent: it names every key the object holds but those
 * refused there.
 */
function closedProperties(
  error: ErrorObject,
  document: SchemaDocument,
  object: Readonly<Record<string, unknown>>,
  refused: ReadonlySet<string>,
): Readonly<Record<string, unknown>> | undefined {
  const schema = placedSchema(error, document);
  const properties = schema?.[error.keyword] === false && isPlainObject(schema.properties) ? schema.properties : undefined;
  if (!properties || !Object.keys(object).every((key) => refused.has(key) || Object.hasOwn(properties, key))) return undefined;
  return Object.values(properties).includes(false) ? Object.fromEntries(Object.entries(properties).filter(([, schema]) => schema !== false)) : properties;
}

/**
 * The keys `propertyNames` refuses, as `[instancePath, key]`: ajv reports the failing keyword (located at the
 * object, the key beside it) and then `propertyNames` itself; the first is worded at the key, the second is redundant.
 */
function keysNamed(errors: readonly ErrorObject[]): Set<string> {
  return new Set(errors.filter((e) => e.propertyName !== undefined).map((e) => JSON.stringify([e.instancePath, e.propertyName])));
}

/** Each location's missing properties, in ajv's order: one problem, so a message showing its first names them all. */
function missingByLocation(errors: readonly ErrorObject[]): Map<string, string[]> {
  const missingAt = new Map<string, string[]>();
  for (const error of errors)
    if (error.keyword === 'required' && error.propertyName === undefined) {
      const names = missingAt.get(error.instancePath);
      const name = String((error.params as { missingProperty?: unknown }).missingProperty);
      if (names) names.push(name);
      else missingAt.set(error.instancePath, [name]);
    }
  return missingAt;
}

/**
 * A failing union's problems: what ajv evaluated before its trials, worded as the level's own, and what stands for
 * the union (none when its own wording does). Within a branch of another union, what precedes its trials may be
 * that union's other branches': the union then stands for itself.
 */
function readUnion(tried: UnionTrials, union: ErrorObject, reading: Reading, inBranch: boolean): { before: readonly Described[]; standIns?: readonly Described[] } {
  if (inBranch && tried.extras.members.length) return { before: [] };
  const before = tried.extras.members.length ? describeInOrder(tried.extras, reading) : [];
  const picked = pickedBranch(tried);
  if (picked) return { before, standIns: describeInOrder(picked, reading, true) };
  const unknown = unknownDiscriminator(tried, union) ?? noBranchType(tried, union, reading.sent) ?? branchesMissing(tried, union) ?? typesApart(tried, reading.sent);
  if (unknown) return { before, standIns: [unknown] };
  // A first-only check's branches each stop at their first problem: what each refuses is not known whole.
  return { before, standIns: reading.firstOnly ? undefined : mixedShapes(tried, union) };
}

/**
 * An error's own problem, at its location, or at the key it refuses there (`its name …`); a refused property the
 * caller nearly spelled is followed by the one `meant`.
 */
function ownProblem(error: ErrorObject, reading: Reading, meant?: string): Described {
  const sent = error.propertyName === undefined ? reading.sent : undefined;
  const byValue = sent && Object.hasOwn(CALLER_WORDINGS, error.keyword) ? CALLER_WORDINGS[error.keyword]!(error, sent) : undefined;
  const own: { extra?: string; problem: string } = byValue ?? wordProblem(error);
  const worded = meant === undefined ? own : { ...own, problem: `${own.problem}${didYouMean(meant)}` };
  const { extra, problem } = error.propertyName === undefined ? worded : { extra: error.propertyName, problem: `its name ${worded.problem}` };
  const path = pointerSegments(error.instancePath);
  return { path: extra === undefined ? path : [...path, extra], problem, pattern: error.keyword === 'pattern' };
}

/** A caller's value as {@link describeSchemaErrors} reads it for the wordings below, with their shared budget. */
type Sent = NonNullable<Reading['sent']>;

/** The {@link Holder} of the location `pointer` names (not the root), and the location's key in it. */
function holderOf(pointer: string, sent: Sent): { holder: Holder; key: string } {
  const cut = pointer.lastIndexOf('/');
  const at = pointer.slice(0, cut);
  let holder = sent.holders.get(at);
  if (!holder) {
    const segments = pointerSegments(at);
    holder = { segments, value: valueAt(sent.value, segments) };
    sent.holders.set(at, holder);
  }
  return { holder, key: unescapedSegment(pointer.slice(cut + 1)) };
}

/** A caller's value at an error's location (own keys and list indexes only), or undefined. */
function sentAt(error: ErrorObject, sent: Sent): unknown {
  if (error.instancePath === '') return sent.value;
  const { holder, key } = holderOf(error.instancePath, sent);
  return typeof holder.value === 'object' && holder.value !== null && Object.hasOwn(holder.value, key) ? (holder.value as Record<string, unknown>)[key] : undefined;
}

/**
 * An `enum` problem naming the allowed string the caller's string nearly spells (`must be one of "low", "normal",
 * "high" (did you mean "high"?)`), or undefined. Past {@link VALUES_LISTED} values the list gives way to their count,
 * so the near miss fits the problem's bound: the refusal's schema lists them all.
 */
function enumNearMiss(error: ErrorObject, sent: Sent): { problem: string } | undefined {
  const allowed = (error.params as { allowedValues?: unknown }).allowedValues;
  const value = sentAt(error, sent);
  if (!Array.isArray(allowed) || typeof value !== 'string') return undefined;
  const meant = nearMissesOf(allowed).meant(value, sent.budget);
  if (meant === undefined) return undefined;
  const listed = allowed.length > VALUES_LISTED ? `must be one of the ${allowed.length} allowed values` : wordProblem(error).problem;
  return { problem: `${listed}${didYouMean(meant)}` };
}

/**
 * A `type` problem for an object or array sent as its JSON text (a string starting with `{` or `[`), which a client
 * or model encoded once too often: `must be an object, not a string of JSON (send the object itself)`; else undefined.
 */
function jsonText(error: ErrorObject, sent: Sent): { problem: string } | undefined {
  const wanted = jsonTextType(sentAt(error, sent));
  const types = String((error.params as { type?: unknown }).type).split(',');
  if (wanted === undefined || !types.includes(wanted)) return undefined;
  return { problem: `${wordProblem(error).problem}, ${notJsonText(wanted)}` };
}

/** What a type problem adds for null sent as a property its object leaves optional: models send it to leave one unset. */
const NULL_PROPERTY = ', not null (leave out an optional property rather than send null)';

/**
 * Whether the caller sent null at `pointer` as a property its object's schema leaves optional (`objectSchemaAt`,
 * read once for all the object's properties): not for an array's item (leaving it out would shift the
 * others), the root value, a required property (`id`, a tool call's `name`), or one the walk cannot place.
 */
function nullProperty(pointer: string, sent: Sent | undefined): boolean {
  if (sent?.schema === undefined || pointer === '') return false;
  const { holder, key } = holderOf(pointer, sent);
  if (!isPlainObject(holder.value) || !Object.hasOwn(holder.value, key) || holder.value[key] !== null) return false;
  if (holder.schema === undefined) holder.schema = objectSchemaAt(sent.schema, holder.segments) ?? null;
  return isOptionalIn(holder.schema ?? undefined, key);
}

/** The problem of a value, where `error` is, of none of `types` (as ajv lists them): null sent as an optional property named so. */
function typeProblem(types: string, error: ErrorObject, sent: Sent | undefined): string {
  return `${KEYWORD_WORDINGS.type({ type: types }).problem}${nullProperty(error.instancePath, sent) ? NULL_PROPERTY : ''}`;
}

/** A `type` problem worded by what was sent: an object or array as its JSON text, or null as an optional property. */
function typeBySent(error: ErrorObject, sent: Sent): { problem: string } {
  return jsonText(error, sent) ?? { problem: typeProblem(String((error.params as { type?: unknown }).type), error, sent) };
}

/** The keywords worded otherwise when the caller's value is known: by what was sent, not only by the schema. */
const CALLER_WORDINGS: Readonly<Record<string, (error: ErrorObject, sent: Sent) => { problem: string } | undefined>> = { enum: enumNearMiss, type: typeBySent };
