import { describe, expect, it } from '@jest/globals';
import { Module, type Type } from '@nestjs/common';
import { z } from 'zod';

import { McpAction, McpConfigurationError, McpTool, type McpActionOptions, type McpToolOptions } from '../../lib/index.js';
import { post, rpc } from '../support/mcp-client.js';
import { createTestApp } from '../support/test-app.js';

/** Builds an action tool class named `tasks` with one method per entry of `actions`, each decorated with its options. */
function actionTool(actions: Record<string, unknown>, options: Partial<McpToolOptions> = {}, members: Record<string, unknown> = {}): Type {
  class DeclaredTool {}
  for (const [method, schema] of Object.entries(actions)) {
    Object.defineProperty(DeclaredTool.prototype, method, { value: () => ({}), writable: true, configurable: true });
    McpAction(schema as McpActionOptions)(DeclaredTool.prototype, method, Object.getOwnPropertyDescriptor(DeclaredTool.prototype, method)!);
  }
  Object.assign(DeclaredTool.prototype, members);
  McpTool({ name: 'tasks', description: 'Tasks', ...options } as McpToolOptions)(DeclaredTool);
  return DeclaredTool;
}

/** Gives a class another name, as its declaration would. */
function renamed(type: Type, name: string): Type {
  Object.defineProperty(type, 'name', { value: name });
  return type;
}

/** A provider with `@McpAction` methods whose class no `@McpTool` marks; and a subclass of it, which inherits them. */
class ActionsWithoutTool {
  @McpAction({ description: 'Create a task', properties: {} })
  create() {
    return {};
  }
  @McpAction({ description: 'List the tasks', properties: {} })
  list() {
    return [];
  }
}
class InheritedActionsWithoutTool extends ActionsWithoutTool {}

/** A valid `create` action schema, for cases to break one part of. */
const base = (): Record<string, unknown> => ({
  description: 'Create a task',
  properties: {
    name: { type: 'string' },
    project: { type: 'string' },
    key: { type: 'string' },
    repo: { type: 'string' },
    priority: { type: 'integer' },
    owner: { type: 'object', properties: { id: { type: 'integer' } } },
  },
  required: ['name'],
});
const create = (changes: Record<string, unknown>) => actionTool({ create: { ...base(), ...changes } });

/** A schema `depth` `allOf`s deep around a string schema. */
function nestedAllOf(depth: number): object {
  let nested: object = { type: 'string' };
  for (let i = 0; i < depth; i++) nested = { allOf: [nested] };
  return nested;
}

/** One case per offence: the providers to boot, and what the refusal's message must say. */
const OFFENCES: [string, Type[], RegExp][] = [
  [
    'an unknown key in an action schema',
    [create({ required_one_of: [['name']] })],
    /^tool "tasks", action "create": .*unknown key\(s\) "required_one_of" \(did you mean "requiredOneOf"\?\)/,
  ],
  [
    'an unknown key in an action schema, with its near miss and every key @McpAction takes',
    [create({ requiredOneof: [['name']] })],
    /^tool "tasks", action "create": the action schema has unknown key\(s\) "requiredOneof" \(did you mean "requiredOneOf"\?\); allowed: name, description, properties, required, requiredOneOf, defaults, notes, related, examples, taskSupport, taskStart$/,
  ],
  [
    'two unknown keys in an action schema, each with its near miss',
    [create({ requiredOneof: [['name']], taskSuport: 'optional' })],
    /^tool "tasks", action "create": .*unknown key\(s\) "requiredOneof" \(did you mean "requiredOneOf"\?\), "taskSuport" \(did you mean "taskSupport"\?\); allowed: /,
  ],
  [
    'a misspelled task mode on an action',
    [create({ taskSuport: 'optional' })],
    /^tool "tasks", action "create": .*unknown key\(s\) "taskSuport" \(did you mean "taskSupport"\?\)/,
  ],
  ['a newline in an action description', [create({ description: 'Create\na task' })], /^tool "tasks", action "create": description contains a newline/],
  ['a newline in an action name', [actionTool({ create: { ...base(), name: 'cre\nate' } })], /^tool "tasks", action "cre\\nate": the action name contains a newline/],
  ['an empty action name', [actionTool({ create: { ...base(), name: '' } })], /^tool "tasks", action "": an action name must be a non-empty string/],
  ['a null action name', [actionTool({ create: { ...base(), name: null } })], /^tool "tasks", action \(unnamed\): an action name must be a non-empty string, got null$/],
  [
    'a line separator in an action name',
    [actionTool({ create: { ...base(), name: 'cre\u2028ate' } })],
    /^tool "tasks", action "cre\u2028ate": the action name contains a newline/,
  ],
  ['a paragraph separator in an action description', [create({ description: 'Create\u2029a task' })], /^tool "tasks", action "create": description contains a newline/],
  ['a missing description', [create({ description: undefined })], /action "create": description must be a non-empty string, got nothing$/],
  ['a missing properties map', [create({ properties: undefined, required: [] })], /action "create": properties is missing/],
  [
    'a property key that is not a string',
    [create({ properties: { [Symbol('name')]: { type: 'string' } }, required: [] })],
    /action "create": properties holds a value JSON cannot carry, .*is not a string/,
  ],
  [
    'a nested properties that is not a map',
    [create({ properties: { name: { type: 'object', properties: [] } } })],
    /action "create": properties is malformed at #\/properties\/name\/properties: "properties" must be a map/,
  ],
  [
    'an additionalProperties that is neither boolean nor schema',
    [create({ properties: { name: { type: 'object', additionalProperties: 1 } } })],
    /action "create": properties is malformed .*"additionalProperties" must be true, false or a schema/,
  ],
  [
    'a value JSON cannot carry in a property schema',
    [create({ properties: { name: { type: 'string', pattern: /x/ } } })],
    /action "create": properties holds a value JSON cannot carry, at #\/properties\/name\/pattern: a RegExp/,
  ],
  [
    'a property schema ajv cannot build',
    [create({ properties: { name: { type: 'strin' } } })],
    /^tool "tasks", action "create", properties: is not a JSON Schema this server can build/,
  ],
  [
    'an unknown format',
    [create({ properties: { name: { type: 'string', format: 'colour' } } })],
    /^tool "tasks", action "create", properties: uses the unknown format "colour"/,
  ],
  ['a required property that is not declared', [create({ required: ['name', 'zz'] })], /action "create": required names \["zz"\], not declared in properties/],
  ['a required list holding a non-name', [create({ required: ['name', 1] })], /action "create": required must be a list of property names, got \[ 'name', 1 \]$/],
  ['a required property named twice', [create({ required: ['name', 'name'] })], /action "create": required names a property more than once$/],
  [
    'a requiredOneOf group naming an undeclared property',
    [create({ requiredOneOf: [['project'], ['key', 'zz']] })],
    /action "create": requiredOneOf group \["key", "zz"\] names \["zz"\], not declared/,
  ],
  [
    'an empty requiredOneOf group',
    [create({ requiredOneOf: [['project'], []] })],
    /action "create": requiredOneOf must be a list of non-empty lists of property names, got \[ \[ 'project' \], \[\] \]$/,
  ],
  [
    'a requiredOneOf group naming a property twice',
    [create({ requiredOneOf: [['project', 'project'], ['key']] })],
    /action "create": requiredOneOf group \["project", "project"\] names a property more than once$/,
  ],
  [
    'a requiredOneOf group that is a strict superset of another',
    [create({ requiredOneOf: [['project'], ['project', 'key']] })],
    /action "create": requiredOneOf group \["project", "key"\] is a strict superset of group \["project"\]/,
  ],
  [
    'two requiredOneOf groups naming the same properties',
    [
      create({
        requiredOneOf: [
          ['key', 'repo'],
          ['repo', 'key'],
        ],
      }),
    ],
    /action "create": requiredOneOf groups \["key", "repo"\] and \["repo", "key"\] name the same properties/,
  ],
  [
    'a requiredOneOf group satisfied by required alone',
    [create({ requiredOneOf: [['name'], ['key']] })],
    /action "create": requiredOneOf group \["name"\] is satisfied by required alone/,
  ],
  ['defaults that are not a map', [create({ defaults: ['priority'] })], /action "create": defaults must be a map of property name to value, got \[ 'priority' \]$/],
  ['a default JSON cannot carry', [create({ defaults: { priority: 10n } })], /action "create": defaults holds a value JSON cannot carry, at #\/defaults\/priority: /],
  ['a default that is also required', [create({ defaults: { name: 'x' } })], /action "create": defaults names \["name"\], which required also names/],
  ['a default naming an undeclared property', [create({ defaults: { zz: 1 } })], /action "create": defaults names \["zz"\], not declared in properties/],
  ['a default its own schema refuses', [create({ defaults: { priority: 'high' } })], /action "create": defaults fail their properties' schemas: priority: must be an integer/],
  [
    'a default carrying a key the unknown-key gate would refuse',
    [create({ defaults: { owner: { id: 1, zz: 2 } } })],
    /action "create": defaults carries key\(s\) the unknown-key gate would refuse from a caller: owner\.zz/,
  ],
  ['notes that are not a string', [create({ notes: ['a'] })], /action "create": notes must be a string, got \[ 'a' \]$/],
  ['related that is not a list of names', [create({ related: 'get' })], /action "create": related must be a list of action names, got "get"$/],
  ['related naming a non-string', [create({ related: ['get', 1] })], /action "create": related must be a list of action names, got \[ 'get', 1 \]$/],
  ['examples that are not data objects', [create({ examples: ['x'] })], /action "create": examples must be a list of example data objects, got \[ 'x' \]$/],
  [
    'an example holding a value JSON cannot carry',
    [create({ examples: [{ name: 'n', priority: Infinity }] })],
    /action "create": examples holds a value JSON cannot carry, at #\/examples\/0\/priority: Infinity is not a JSON value$/,
  ],
  ['an example lacking a required property', [create({ examples: [{ project: 'p' }] })], /action "create": examples\[0\] lacks required \["name"\]/],
  [
    'an example satisfying no requiredOneOf group',
    [create({ requiredOneOf: [['project'], ['key']], examples: [{ name: 'n' }] })],
    /action "create": examples\[0\] satisfies no requiredOneOf group/,
  ],
  [
    'an example holding only part of each requiredOneOf group',
    [create({ requiredOneOf: [['project'], ['key', 'repo']], examples: [{ name: 'n', key: 'k' }] })],
    /action "create": examples\[0\] satisfies no requiredOneOf group/,
  ],
  [
    'an example carrying a key the unknown-key gate would refuse',
    [create({ examples: [{ name: 'n', zz: 1 }] })],
    /action "create": examples\[0\] carries key\(s\) the unknown-key gate would refuse: zz/,
  ],
  [
    'an example its schema refuses',
    [create({ examples: [{ name: 'n' }, { name: 'n', priority: 'high' }] })],
    /action "create": examples\[1\] fails the properties' schemas: priority: must be an integer/,
  ],
  [
    'an output schema ajv cannot build',
    [actionTool({ create: base() }, { outputSchema: { type: 'object', properties: { n: { $ref: '#/$defs/none' } } } })],
    /^tool "tasks", outputSchema: is not a JSON Schema this server can build/,
  ],
  [
    'two actions of one name',
    [actionTool({ create: base(), make: { ...base(), name: 'create' } })],
    /^tool "tasks", action "create": is declared twice, by methods create\(\) and make\(\)/,
  ],
  ['an action method named like a hook', [actionTool({ hints: base() })], /^tool "tasks", method "hints": @McpAction cannot decorate hints\(\)/],
  [
    'a tool title that is not a string',
    [actionTool({ create: base() }, { title: 42 as unknown as string })],
    /^tool "tasks" \(DeclaredTool\): title must be a string, got 42$/,
  ],
  ['an empty tool description', [actionTool({ create: base() }, { description: '' })], /^tool "tasks" \(DeclaredTool\): description must be a non-empty string, got ""$/],
  [
    'tool annotations that are not an object',
    [actionTool({ create: base() }, { annotations: 'read-only' as never })],
    /^tool "tasks" \(DeclaredTool\): annotations must be an object, got "read-only"$/,
  ],
  [
    'an unknown tool annotation, with the annotation it nearly spells',
    [actionTool({ create: base() }, { annotations: { readOnly: true, destructive_hint: false } as never })],
    /^tool "tasks" \(DeclaredTool\): annotations has unknown option\(s\) "readOnly" \(did you mean "readOnlyHint"\?\), "destructive_hint" \(did you mean "destructiveHint"\?\); allowed: title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint$/,
  ],
  [
    'an unknown tool annotation nearly spelling none',
    [actionTool({ create: base() }, { annotations: { audience: ['user'] } as never })],
    /^tool "tasks" \(DeclaredTool\): annotations has unknown option\(s\) "audience"; allowed: title, readOnlyHint/,
  ],
  [
    'a tool annotation hint that is not a boolean',
    [actionTool({ create: base() }, { annotations: { destructiveHint: 'yes' } as never })],
    /^tool "tasks" \(DeclaredTool\): annotations\.destructiveHint must be a boolean, got "yes"$/,
  ],
  [
    'a tool annotation title that is not a string',
    [actionTool({ create: base() }, { annotations: { title: 7 } as never })],
    /^tool "tasks" \(DeclaredTool\): annotations\.title must be a string, got 7$/,
  ],
  [
    'a hook that is not a method',
    [actionTool({ create: base() }, {}, { formatError: 'oops' })],
    /^tool "tasks": formatError must be a method \(an optional hook\), got "oops"$/,
  ],
  ['an action tool with no action', [actionTool({})], /^tool "tasks": declares neither an inputSchema/],
  [
    'an @McpAction given no options object (stored as null), beside a valid one',
    [actionTool({ create: base(), count: undefined })],
    /^tool "tasks", method count\(\): @McpAction takes an options object \(the action's schema\), got null$/,
  ],
  [
    'an @McpAction given a string',
    [actionTool({ create: base(), count: 'counts' })],
    /^tool "tasks", method count\(\): @McpAction takes an options object \(the action's schema\), got "counts"$/,
  ],
  [
    'a provider with @McpAction methods but no @McpTool',
    [actionTool({ create: base() }), ActionsWithoutTool],
    /^class ActionsWithoutTool: has @McpAction methods \(create\(\), list\(\)\) but no @McpTool; add @McpTool\(\{ name, description \}\) to the class$/,
  ],
  [
    'a provider inheriting @McpAction methods, with no @McpTool',
    [InheritedActionsWithoutTool],
    /^class InheritedActionsWithoutTool: has @McpAction methods \(create\(\), list\(\)\) but no @McpTool/,
  ],
  [
    'a tool declaring both an inputSchema and actions',
    [actionTool({ create: base() }, { inputSchema: { type: 'object' } })],
    /declares both an inputSchema \(a plain tool\) and @McpAction methods \(create\(\)\)/,
  ],
  ['an unknown @McpTool option', [actionTool({ create: base() }, { actions: {} } as never)], /^tool "tasks" \(DeclaredTool\): @McpTool has unknown option\(s\) "actions"/],
  [
    'a misspelt @McpTool option, with its near miss',
    [actionTool({ create: base() }, { descripton: 'Tasks' } as never)],
    /^tool "tasks" \(DeclaredTool\): @McpTool has unknown option\(s\) "descripton" \(did you mean "description"\?\); allowed: /,
  ],
  [
    'a duplicate tool name, naming both classes',
    [actionTool({ create: base() }), renamed(actionTool({ create: base() }), 'OtherTasksTool')],
    /^tool "tasks": is declared more than once \(tool names are unique in a server\): by classes DeclaredTool and OtherTasksTool; give one of the tools another name$/,
  ],
  [
    'a duplicate tool name declared by two classes of one name',
    [actionTool({ create: base() }), actionTool({ create: base() })],
    /^tool "tasks": is declared more than once \(tool names are unique in a server\): by two classes named DeclaredTool; give one of the tools another name$/,
  ],
  ['a malformed tool name', [actionTool({ create: base() }, { name: 'my tasks' })], /^tool "my tasks": a tool name must be 1–128 characters.*, got "my tasks"$/],
  [
    'a zod schema as inputSchema (a Standard Schema, not a JSON Schema)',
    [actionTool({}, { inputSchema: z.object({ text: z.string().default('hi') }) as never }, { run: () => 1 })],
    /^tool "tasks" \(DeclaredTool\), inputSchema: is a Standard Schema \(zod, Valibot, ArkType…\), not a JSON Schema: pass its JSON Schema \(zod 4: z\.toJSONSchema\(schema, \{ io: 'input' \}\)\)$/,
  ],
  [
    'zod’s recursive object as an action’s properties (children.items is $ref "#", the data object the library builds)',
    [
      (() => {
        const Cat: z.ZodType = z.object({
          name: z.string(),
          get children() {
            return z.array(Cat);
          },
        });
        const json = z.toJSONSchema(Cat, { io: 'input' }) as { properties: Record<string, unknown>; required: string[] };
        return create({ properties: json.properties, required: json.required });
      })(),
    ],
    /^tool "tasks", action "create": properties refer to "#" at #\/properties\/children\/items: there "#" is the action's data object, .*give the recursive schema its own "\$id"/,
  ],
  [
    'a $dynamicRef "#" deep in an action’s properties, under a composition',
    [create({ properties: { pick: { anyOf: [{ type: 'string' }, { type: 'array', prefixItems: [{ $dynamicRef: '#' }] }] } } })],
    /action "create": properties refer to "#" at #\/properties\/pick\/anyOf\/1\/prefixItems\/0:/,
  ],
  [
    'an action property that names another dialect (a converter run on the property alone; ajv reads no $schema below the root)',
    [create({ properties: { due: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'string', format: 'date' } }, required: ['due'] })],
    /^tool "tasks", action "create", properties: declares the unsupported JSON Schema dialect http:\/\/json-schema\.org\/draft-07\/schema# at #\/properties\/due; only 2020-12 is supported/,
  ],
  [
    'a Standard Schema that is a plain object, its ~standard a key JSON would keep (as Valibot’s are)',
    [actionTool({}, { inputSchema: { type: 'object', '~standard': { version: 1, vendor: 'valibot', validate: () => ({ value: {} }) } } as never }, { run: () => 1 })],
    /^tool "tasks" \(DeclaredTool\), inputSchema: is a Standard Schema \(zod, Valibot, ArkType…\), not a JSON Schema: pass its JSON Schema \(Valibot: toJsonSchema\(schema, \{ target: 'draft-2020-12' \}\) from @valibot\/to-json-schema\)$/,
  ],
  [
    'a Standard Schema that is a function (as ArkType’s types are)',
    [
      actionTool(
        {},
        { inputSchema: Object.assign(() => true, { '~standard': { version: 1, vendor: 'arktype', validate: () => ({ value: {} }) } }) as never },
        { run: () => 1 },
      ),
    ],
    /^tool "tasks" \(DeclaredTool\), inputSchema: is a Standard Schema \(zod, Valibot, ArkType…\), not a JSON Schema: pass its JSON Schema \(ArkType: schema\.toJsonSchema\(\)\)$/,
  ],
  [
    'a zod schema as outputSchema',
    [actionTool({}, { inputSchema: { type: 'object' }, outputSchema: z.object({ n: z.number() }) as never }, { run: () => 1 })],
    /^tool "tasks" \(DeclaredTool\), outputSchema: is a Standard Schema .*\(zod 4: z\.toJSONSchema\(schema\)\)$/,
  ],
  ['a tool without a name', [actionTool({ create: base() }, { name: undefined })], /^tool \(unnamed\): a tool name must be 1–128 characters.*, got nothing$/],
  ['the reserved name help', [actionTool({ create: base() }, { name: 'help' })], /^tool "help": uses the reserved name "help"/],
  [
    'a plain tool input schema with an unknown format',
    [actionTool({}, { inputSchema: { type: 'object', properties: { at: { type: 'string', format: 'when' } } } }, { run: () => 1 })],
    /^tool "tasks", inputSchema: uses the unknown format "when"/,
  ],
  [
    'a plain tool input schema holding a value JSON cannot carry',
    [actionTool({}, { inputSchema: { type: 'object', properties: { at: { type: 'string', pattern: /x/ } } } }, { run: () => 1 })],
    /^tool "tasks", inputSchema: is not a JSON Schema this server can build: at #\/properties\/at\/pattern: a RegExp is not a JSON value/,
  ],
  [
    'required: true on a property (JSON Schema draft 3), the fix named',
    [actionTool({}, { inputSchema: { type: 'object', properties: { code: { type: 'string', required: true } } } }, { run: () => 1 })],
    /^tool "tasks", inputSchema: is not a JSON Schema this server can build: schema is invalid: .*required must be array; "required" is a list of property names given on the object that holds them: to require "code", list it in its parent object's "required": \["code"\]$/,
  ],
  [
    'a required that is one name, not a list',
    [actionTool({}, { inputSchema: { type: 'object', properties: { code: { type: 'string' } }, required: 'code' } }, { run: () => 1 })],
    /^tool "tasks", inputSchema: is not a JSON Schema this server can build: schema is invalid: .*required must be array; "required" is a list of property names given on the object that holds them$/,
  ],
  [
    'required: false on a property, the fix named (remove it)',
    [actionTool({}, { inputSchema: { type: 'object', properties: { code: { type: 'string', required: false } } } }, { run: () => 1 })],
    /must be array; "required" is a list of property names given on the object that holds them: remove "required": false from "code" \(a property is optional unless listed\)$/,
  ],
  [
    'a dependentRequired entry named required that is not a list (no hint about required lists)',
    [actionTool({}, { inputSchema: { type: 'object', properties: { required: {} }, dependentRequired: { required: 'note' } } }, { run: () => 1 })],
    /^tool "tasks", inputSchema: is not a JSON Schema this server can build: schema is invalid: #\/dependentRequired\/required must be array$/,
  ],
  [
    'a draft-7 dependencies entry named required that is neither a list nor a schema (no hint about required lists)',
    [actionTool({}, { inputSchema: { type: 'object', properties: { required: {} }, dependencies: { required: 'note' } } }, { run: () => 1 })],
    /^tool "tasks", inputSchema: is not a JSON Schema this server can build: schema is invalid: #\/dependencies\/required must be [^;]*$/,
  ],
  [
    'a dependentRequired entry that is not a list, under a name ending in "required" (no hint about required lists)',
    [actionTool({}, { inputSchema: { type: 'object', properties: { gift_wrap_required: {} }, dependentRequired: { gift_wrap_required: 'note' } } }, { run: () => 1 })],
    /^tool "tasks", inputSchema: is not a JSON Schema this server can build: schema is invalid: #\/dependentRequired\/gift_wrap_required must be array$/,
  ],
  [
    'an output schema whose property named required is no schema (no hint about required lists)',
    [actionTool({ create: base() }, { outputSchema: { type: 'object', properties: { required: 5 } } })],
    /^tool "tasks", outputSchema: is not a JSON Schema this server can build: schema is invalid: #\/properties\/required must be object,boolean[^;]*$/,
  ],
  [
    'a $ref to a schema another tool declares (schemas are compiled apart, never through a shared registry)',
    [
      actionTool({}, { name: 'first', inputSchema: { $id: 'https://example.com/first', type: 'object' } }, { run: () => 1 }),
      actionTool({ create: base() }, { outputSchema: { $ref: 'https://example.com/first' } }),
    ],
    /^tool "tasks", outputSchema: is not a JSON Schema this server can build: can't resolve reference https:\/\/example\.com\/first/,
  ],
  [
    'a plain tool input schema ajv would compile to an async validator ($async)',
    [actionTool({}, { inputSchema: { $async: true, type: 'object', properties: { n: { type: 'integer' } } } }, { run: () => 1 })],
    /^tool "tasks", inputSchema: declares "\$async"/,
  ],
  [
    'an output schema ajv would compile to an async validator ($async)',
    [actionTool({ create: base() }, { outputSchema: { $async: true, type: 'object' } })],
    /^tool "tasks", outputSchema: declares "\$async"/,
  ],
  [
    'a plain tool input schema whose recursion never descends into the value (its validator would never finish)',
    [actionTool({}, { inputSchema: { type: 'object', $defs: { F: { anyOf: [{ $ref: '#/$defs/F' }] } }, properties: { filter: { $ref: '#/$defs/F' } } } }, { run: () => 1 })],
    /^tool "tasks", inputSchema: recurses without end: \$ref "#\/\$defs\/F" \(at #\/\$defs\/F\/anyOf\/0\) leads back to #\/\$defs\/F /,
  ],
  [
    'an action property whose recursion never descends into the value',
    [create({ properties: { ...(base().properties as object), filter: { not: { type: 'string' }, $ref: '#/properties/filter' } } })],
    /^tool "tasks", action "create", properties: recurses without end: \$ref "#\/properties\/filter" \(at #\/properties\/filter\)/,
  ],
  [
    'an output schema whose recursion never descends into the value',
    [actionTool({ create: base() }, { outputSchema: { type: 'object', allOf: [{ $ref: '#' }] } })],
    /^tool "tasks", outputSchema: recurses without end: \$ref "#" \(at #\/allOf\/0\) leads back to # /,
  ],
  [
    'a plain tool input schema whose $dynamicRef names a JSON pointer (ajv would apply the whole schema there)',
    [actionTool({}, { inputSchema: { type: 'object', $defs: { S: { type: 'string' } }, properties: { a: { $dynamicRef: '#/$defs/S' } } } }, { run: () => 1 })],
    /^tool "tasks", inputSchema: \$dynamicRef "#\/\$defs\/S" \(at #\/properties\/a\) names no \$dynamicAnchor of a schema around it/,
  ],
  [
    'a plain tool input schema nested 10,000 deep (a walk would overflow the stack)',
    [actionTool({}, { inputSchema: { type: 'object', properties: { a: nestedAllOf(10_000) } } }, { run: () => 1 })],
    /^tool "tasks" \(DeclaredTool\): declares a schema nested too deeply to check \(Maximum call stack size exceeded\): nest it less deeply$/,
  ],
  [
    'an action property nested 10,000 deep',
    [create({ properties: { ...(base().properties as object), deep: nestedAllOf(10_000) } })],
    /^tool "tasks" \(DeclaredTool\): declares a schema nested too deeply to check \(Maximum call stack size exceeded\): nest it less deeply$/,
  ],
  [
    'an output schema nested 10,000 deep',
    [actionTool({ create: base() }, { outputSchema: { type: 'object', properties: { a: nestedAllOf(10_000) } } })],
    /^tool "tasks" \(DeclaredTool\): declares a schema nested too deeply to check \(Maximum call stack size exceeded\): nest it less deeply$/,
  ],
  [
    'a plain tool input schema whose unknown format names the call stack (no nesting: its own refusal)',
    [actionTool({}, { inputSchema: { type: 'object', properties: { a: { type: 'string', format: 'call stack' } } } }, { run: () => 1 })],
    /^tool "tasks", inputSchema: uses the unknown format "call stack"/,
  ],
  [
    'a plain tool input schema without type object at the root',
    [actionTool({}, { inputSchema: { type: 'string' } }, { run: () => 1 })],
    /^tool "tasks", inputSchema: must be a JSON Schema object with "type": "object" at the root, got "string"$/,
  ],
  [
    'a plain tool input schema whose root is a union without a type (zod’s discriminated union)',
    [
      actionTool(
        {},
        { inputSchema: { ...z.toJSONSchema(z.discriminatedUnion('kind', [z.object({ kind: z.literal('a') }), z.object({ kind: z.literal('b') })]), { io: 'input' }) } },
        { run: () => 1 },
      ),
    ],
    /^tool "tasks", inputSchema: must be a JSON Schema object with "type": "object" at the root, got no "type" beside oneOf; when each of its shapes is an object, write "type": "object" beside it$/,
  ],
  [
    'a plain tool input schema whose root composes with several keywords and says no type',
    [actionTool({}, { inputSchema: { allOf: [{ type: 'object' }], $ref: '#/$defs/base', $defs: { base: { type: 'object' } } } }, { run: () => 1 })],
    /^tool "tasks", inputSchema: must be a JSON Schema object with "type": "object" at the root, got no "type" beside allOf, \$ref; when each of its shapes is an object, write "type": "object" beside them$/,
  ],
  [
    'a plain tool input schema whose root says another type beside a composition',
    [actionTool({}, { inputSchema: { type: 'array', anyOf: [{ items: {} }] } }, { run: () => 1 })],
    /^tool "tasks", inputSchema: must be a JSON Schema object with "type": "object" at the root, got "array"$/,
  ],
  [
    'a plain tool input schema requiring a key its closed root does not declare',
    [actionTool({}, { inputSchema: { type: 'object', properties: { a: {} }, required: ['b'] } }, { run: () => 1 })],
    /^tool "tasks", inputSchema: is malformed at #: required names "b", which properties does not declare/,
  ],
  [
    'a nested object of an action requiring a key it refuses',
    [create({ properties: { name: { type: 'string' }, owner: { type: 'object', properties: { id: {} }, required: ['uid'] } } })],
    /action "create": properties is malformed at #\/properties\/owner: required names "uid"/,
  ],
];

describe('module init refuses a tool declaration', () => {
  it.each(OFFENCES)('refuses %s with a McpConfigurationError naming the tool, the action where there is one, and the offence', async (_offence, providers, message) => {
    const started = createTestApp({ providers });
    await expect(started).rejects.toBeInstanceOf(McpConfigurationError);
    await expect(started).rejects.toThrow(message);
  });

  it.each([
    ['null', null, 'null'],
    ['a string', 'tasks', '"tasks"'],
  ])('refuses @McpTool given %s, which would otherwise serve nothing', async (_what, options, shown) => {
    class Bare {
      run() {
        return 'x';
      }
    }
    McpTool(options as unknown as McpToolOptions)(Bare);
    const started = createTestApp({ providers: [Bare] });
    await expect(started).rejects.toBeInstanceOf(McpConfigurationError);
    await expect(started).rejects.toThrow(new RegExp(`^tool \\(Bare\\): @McpTool takes an options object with name and description, got ${shown}$`));
  });

  it('lets a RangeError other than a stack overflow through as it is, not as a schema nested too deeply', async () => {
    const inputSchema = Object.defineProperty({ type: 'object' }, 'properties', {
      enumerable: true,
      get: () => {
        throw new RangeError('Invalid array length');
      },
    });
    const started = createTestApp({ providers: [actionTool({}, { inputSchema }, { run: () => 1 })] });
    await expect(started).rejects.toBeInstanceOf(RangeError);
    await expect(started).rejects.toThrow(/^Invalid array length$/);
  });

  it('refuses one tool class provided by two modules (two instances of one tool), naming the class and the modules', async () => {
    const Shared = renamed(actionTool({ create: base() }), 'SharedTasksTool');
    @Module({ providers: [Shared] })
    class FeatureModule {}
    const started = createTestApp({ providers: [Shared], imports: [FeatureModule] });
    await expect(started).rejects.toBeInstanceOf(McpConfigurationError);
    await expect(started).rejects.toThrow(
      /^tool "tasks": is declared more than once \(tool names are unique in a server\): class SharedTasksTool is provided by two modules, (FeatureModule and TestHostModule|TestHostModule and FeatureModule) \(two instances\); provide it in one module and export it$/,
    );
  });

  it('refuses one tool class provided under two tokens of one module (two instances), naming the tokens', async () => {
    const Shared = renamed(actionTool({ create: base() }), 'SharedTasksTool');
    const started = createTestApp({ providers: [Shared, { provide: 'TASKS', useClass: Shared }] });
    await expect(started).rejects.toBeInstanceOf(McpConfigurationError);
    await expect(started).rejects.toThrow(
      /^tool "tasks": is declared more than once \(tool names are unique in a server\): class SharedTasksTool is provided twice in TestHostModule, under the class token SharedTasksTool and "TASKS" \(two instances\); provide it under one token and alias the other with useExisting$/,
    );
  });

  it('starts when two tools declare schemas with the same root $id (each schema is compiled on its own)', async () => {
    const input = { $id: 'https://example.com/search', type: 'object', properties: { q: { type: 'string' } } };
    const output = () => ({ $id: 'https://example.com/page', type: 'object' });
    const app = await createTestApp({
      providers: [
        actionTool({}, { name: 'issues', inputSchema: input, outputSchema: output() }, { run: () => ({}) }),
        actionTool({}, { name: 'pulls', inputSchema: input, outputSchema: output() }, { run: () => ({}) }),
      ],
    });
    try {
      const listed = await post(app.server, rpc('tools/list'));
      expect(listed.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual(['help', 'issues', 'pulls']);
    } finally {
      await app.close();
    }
  });

  it('starts when the same declaration is valid (the cases above break one thing each)', async () => {
    const app = await createTestApp({ providers: [create({ requiredOneOf: [['project'], ['key', 'repo']], defaults: { priority: 1, owner: { id: 2 } } })] });
    try {
      const listed = await post(app.server, rpc('tools/list'));
      expect(listed.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual(['help', 'tasks']);
    } finally {
      await app.close();
    }
  });
});
