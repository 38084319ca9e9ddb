// Property-based fuzzing of tools/call arguments, generated from the sample tools' own input schemas (tools/list,
// and help for each action), over real HTTP. FUZZ_RUNS=n runs n cases per property (CI default below); a failure
// prints fast-check's seed and path: replay with FUZZ_SEED=… FUZZ_PATH=….
import { beforeAll, describe, expect } from '@jest/globals';
import fc from 'fast-check';

import { post, rpc } from '../support/mcp-client.js';
import { callTool, toolCall } from '../support/mrtr-client.js';
import { ABSENT, conformingHeaders, hugeString, mirrorValue, nastyKey, nastyString, present, smallJson, wrongValue } from './arbitraries.js';
import { sendCase, useFuzzedSample, type FuzzCase } from './fuzz-support.js';

const RUNS = 150;

/** The subset of JSON Schema the sample's tools and actions use. */
interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  requiredOneOf?: string[][];
  enum?: unknown[];
  format?: string;
  minLength?: number;
  minimum?: number;
  maximum?: number;
}

/** Regions the sample's weather tool knows (sample/src/weather/weather.tool.ts). */
const KNOWN_REGIONS = ['eu-west', 'us-east', 'ap-south'];

/** Names every plain object answers to: a lookup that forgets `Object.hasOwn` finds them. */
const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

/** Values for a schema: mostly valid, sometimes of the wrong type, out of range, nasty or huge; `hints` are strings to favour. */
function valueFor(schema: Schema, hints: readonly string[] = []): fc.Arbitrary<unknown> {
  const wrong = { weight: 1, arbitrary: wrongValue };
  if (schema.enum) return fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...schema.enum) }, { weight: 1, arbitrary: nastyString }, wrong);
  switch (schema.type) {
    case 'string': {
      const formatted =
        schema.format === 'date'
          ? fc.oneof(
              fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
              fc.constantFrom('next friday', '2026-02-30'),
            )
          : schema.format === 'email'
            ? fc.oneof(fc.emailAddress(), fc.constantFrom('not-an-email', 'a@'))
            : fc.string({ maxLength: 30 });
      return fc.oneof(
        { weight: 5, arbitrary: hints.length ? fc.oneof(fc.constantFrom(...hints), formatted) : formatted },
        { weight: 2, arbitrary: nastyString },
        { weight: 1, arbitrary: hugeString },
        wrong,
      );
    }
    case 'integer':
      return fc.oneof(
        { weight: 5, arbitrary: fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 }) },
        { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.constantFrom(0, -1, 101, 1.5, 2 ** 53, -(2 ** 60))) },
        wrong,
      );
    case 'boolean':
      return fc.oneof({ weight: 5, arbitrary: fc.boolean() }, wrong);
    case 'object':
      return fc.oneof({ weight: 8, arbitrary: objectFor(schema, hints) }, wrong);
    default:
      return smallJson;
  }
}

/** Objects for an object schema: each property present or not (required ones mostly present), unknown keys now and then. */
function objectFor(schema: Schema, hints: readonly string[] = []): fc.Arbitrary<Record<string, unknown>> {
  const required = new Set([...(schema.required ?? []), ...(schema.requiredOneOf?.[0] ?? [])]);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, property] of Object.entries(schema.properties ?? {}))
    model[key] = fc.oneof({ weight: required.has(key) ? 12 : 5, arbitrary: valueFor(property, hints) }, { weight: required.has(key) ? 1 : 5, arbitrary: fc.constant(ABSENT) });
  return fc
    .tuple(fc.record(model), fc.oneof({ weight: 8, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: fc.dictionary(nastyKey, smallJson, { minKeys: 1, maxKeys: 3 }) }))
    .map(([known, extra]) => present({ ...extra, ...known }));
}

/** Per tool, its argument arbitrary: from its input schema, or (an action tool) an action with that action's data schema. */
type ToolArgs = Record<string, fc.Arbitrary<unknown>>;

describe('fuzz: tool arguments against the sample tools, from their own schemas', () => {
  const { server, itHolds } = useFuzzedSample();
  const args: ToolArgs = {};

  beforeAll(async () => {
    const index = await post(server(), rpc('resources/read', { uri: 'notes://index' }));
    const noteTitles = JSON.parse(index.body.result.contents[0].text) as string[];
    const listed = (await post(server(), rpc('tools/list'))).body.result.tools as { name: string; inputSchema: Schema }[];
    const hints = [...KNOWN_REGIONS, ...noteTitles, ...listed.map((tool) => tool.name), ...PROTOTYPE_NAMES];
    for (const { name, inputSchema } of listed) {
      const actions = inputSchema.properties?.action?.enum as string[] | undefined;
      if (!actions) {
        args[name] = fc.oneof({ weight: 9, arbitrary: objectFor(inputSchema, hints) }, { weight: 1, arbitrary: wrongValue });
        continue;
      }
      const perAction = await Promise.all(
        actions.map(async (action) => {
          const help = await callTool(server(), 'help', { tool: name, action });
          const schema = JSON.parse(help.body.result.content[0].text) as Schema;
          return fc.record({
            action: fc.oneof({ weight: 9, arbitrary: fc.constant(action) }, { weight: 1, arbitrary: fc.oneof(nastyString, wrongValue) }),
            data: objectFor({ ...schema, type: 'object' }),
          });
        }),
      );
      args[name] = fc.oneof({ weight: 9, arbitrary: fc.oneof(...perAction) }, { weight: 1, arbitrary: objectFor(inputSchema) });
    }
    expect(Object.keys(args)).toEqual(expect.arrayContaining(['echo', 'weather', 'delete_note', 'tasks']));
  });

  /** One call: the tool, its arguments, the era, and an optional progress token (built once the schemas are read). */
  const callArb = () =>
    fc.constantFrom(...Object.keys(args)).chain((tool) =>
      fc.record({
        tool: fc.constant(tool),
        args: args[tool]!,
        legacy: fc.boolean(),
        progressToken: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 10 }), fc.integer()) }),
      }),
    );

  itHolds(
    'answers every call with a tool result or a refusal the table allows, each tool true to its contract, and keeps serving',
    RUNS * 2,
    callArb,
    async ({ tool, args: a, legacy, progressToken }) => {
      const meta = progressToken === undefined ? {} : { progressToken };
      const modern = toolCall(tool, a as Record<string, unknown>, { meta });
      const body = legacy
        ? { jsonrpc: '2.0', id: modern.id, method: 'tools/call', params: present({ name: tool, arguments: a, _meta: progressToken === undefined ? ABSENT : meta }) }
        : modern;
      const headers = conformingHeaders(body); // a legacy body has no _meta: MCP-Protocol-Version 2025-11-25, no mirrors
      const region = (a as { region?: unknown } | null)?.region;
      if (!legacy && tool === 'weather' && typeof region === 'string') headers.push(['Mcp-Param-Region', mirrorValue(region)]);
      const bytes = Buffer.from(JSON.stringify(body));
      const head = headers.reduce((n, [k, v]) => n + k.length + Buffer.byteLength(v) + 4, 0);
      // echo returns its text, tasks its stored tasks: by design, not an unbounded echo.
      const c: FuzzCase = { headers, body: bytes, malformedHttp: head > 15_000, echoAllowance: tool === 'echo' ? bytes.length : tool === 'tasks' ? Infinity : 0 };
      const { answer, messages } = await sendCase(server(), c);
      const result = answer.status === 200 ? messages.at(-1)?.result : undefined;
      if (!result) return;
      const text: string | undefined = result.content?.[0]?.text;
      const seen = JSON.stringify(messages.at(-1)).slice(0, 400);
      if (result.isError) expect({ seen, fault: text?.includes('"tool_fault"') }).toEqual({ seen, fault: false });
      else if (tool === 'echo') expect({ seen, text }).toEqual({ seen, text: (a as { text: string }).text });
      else if (tool === 'weather' && result.resultType !== 'input_required') {
        const known = KNOWN_REGIONS.includes(region as string);
        expect({ seen, known, text: known ? text?.startsWith(`${region}: `) : text?.startsWith('No weather for region') }).toEqual({ seen, known, text: true });
      }
    },
    80,
  );
});
