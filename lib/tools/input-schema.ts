import type { ValidatedAction, ValidatedActionSchema } from './action-schema.js';
import { closeProperties } from './key-set.js';
import type { JsonSchema } from './tool.interfaces.js';

/**
 * The action summaries of an action tool: `<action>: <description>` per action, sorted by action name. One
 * content source for the tools/list action enum's description and help's index, so the two cannot drift.
 * Consumer-authored text goes out as written: the framework adds the name prefix and sorts, and never edits the
 * characters (which is why neither half may hold a newline, `action-schema.ts`).
 */
export function actionSummaries(actions: readonly ValidatedAction[]): string[] {
  return sortedByName(actions).map((a) => `${a.name}: ${a.schema.description}`);
}

/** Actions sorted by name (UTF-16 code unit order), the order every published list of actions follows. */
export function sortedByName<A extends { readonly name: string }>(actions: readonly A[]): A[] {
  return [...actions].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The generated input schema of an action tool: `{action, data}`, closed (`additionalProperties: false`), the
 * action a required string out of the action names, described by the action summaries joined by newlines.
 * `data` is an object whose properties depend on the action: the dispatch gates check it, help publishes it.
 */
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
 * The input_schema digest a data-level gate refusal carries: the action's properties (with the key-set closure
 * published), required fields and defaults, plus `required_one_of` when the action declares groups. Wire
 * spelling: `required_one_of` (snake_case, as in help); every other key keeps its action-schema name.
 * @publicApi
 */
export interface InputSchemaDigest {
  readonly properties: Readonly<Record<string, JsonSchema>>;
  readonly required: readonly string[];
  readonly defaults: Readonly<Record<string, unknown>>;
  readonly required_one_of?: readonly (readonly string[])[];
}

/** Builds an action's input_schema digest (once, at module init). */
export function inputSchemaDigest(schema: ValidatedActionSchema): InputSchemaDigest {
  return {
    properties: closeProperties(schema.properties as Record<string, JsonSchema>),
    required: schema.required,
    defaults: schema.defaults,
    ...(schema.requiredOneOf.length > 0 && { required_one_of: schema.requiredOneOf }),
  };
}

/**
 * One action as help publishes it at the tool and action levels: its digest plus the description, notes,
 * related actions and examples, each present only when declared. Consumer-authored text goes out as written.
 */
export function renderAction(schema: ValidatedActionSchema): Record<string, unknown> {
  return {
    description: schema.description,
    ...inputSchemaDigest(schema),
    ...(schema.notes !== undefined && { notes: schema.notes }),
    ...(schema.related !== undefined && { related: schema.related }),
    ...(schema.examples !== undefined && { examples: schema.examples }),
  };
}
