import type { ValidatedAction } from './action-schema.js';
import type { JsonSchema } from './tool.interfaces.js';

/**
 * The action summaries, `<action>: <description>` sorted by name: the one source for the tools/list enum
 * description and help's index, so the two cannot drift.
 */
export function actionSummaries(actions: readonly ValidatedAction[]): string[] {
  return sortedByName(actions).map((a) => `${a.name}: ${a.schema.description}`);
}

/** Actions sorted by name (UTF-16 code unit order), the order every published list of actions follows. */
export function sortedByName<A extends { readonly name: string }>(actions: readonly A[]): A[] {
  return [...actions].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The generated `{action, data}` input schema of an action tool (docs/tools.md, "What tools/list publishes"). */
export function actionToolInputSchema(tool: string, actions: readonly ValidatedAction[]): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      action: {
        type: 'string',
        enum: sortedByName(actions).map((a) => a.name),
        description: actionSummaries(actions).join('\n'),
      },
      data: {
        type: 'object',
        description: `The action's data. Its properties depend on the action: call the help tool with {"tool": ${JSON.stringify(tool)}, "action": "<action>"} to read them.`,
      },
    },
    required: ['action'],
    additionalProperties: false,
  };
}

/**
 * The input_schema digest every data-level refusal carries: properties (closure published), required, defaults,
 * and `required_one_of` when groups are declared; a plain tool's also the other root keywords that decide its
 * arguments (`$defs`, `oneOf`, `patternProperties`…, each present).
 * @publicApi
 */
export interface InputSchemaDigest {
  readonly properties: Readonly<Record<string, JsonSchema>>;
  readonly required: readonly string[];
  readonly defaults: Readonly<Record<string, unknown>>;
  readonly required_one_of?: readonly (readonly string[])[];
  readonly [rootKeyword: string]: unknown;
}

/** Builds an action's input_schema digest (once, at module init). */
export function inputSchemaDigest({ schema, closedProperties }: ValidatedAction): InputSchemaDigest {
  return {
    properties: closedProperties,
    required: schema.required,
    defaults: schema.defaults,
    ...(schema.requiredOneOf.length > 0 && { required_one_of: schema.requiredOneOf }),
  };
}

/** One action as help publishes it: its digest plus description, notes, related and examples, each when declared. */
export function renderAction({ schema }: ValidatedAction, digest: InputSchemaDigest): Record<string, unknown> {
  const rendered: Record<string, unknown> = Object.assign<Record<string, unknown>, InputSchemaDigest>({ description: schema.description }, digest);
  if (schema.notes !== undefined) rendered.notes = schema.notes;
  if (schema.related !== undefined) rendered.related = schema.related;
  if (schema.examples !== undefined) rendered.examples = schema.examples;
  return rendered;
}
