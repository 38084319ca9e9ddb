import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import {
  McpAction,
  McpModule,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpTool,
  ok,
  type JsonSchema,
  type McpActionOptions,
  type McpCompleter,
  type McpContentBlock,
  type McpContext,
  type McpHandlerContext,
  type McpElicitFormSchema,
  type McpHint,
  type McpModuleAsyncOptions,
  type McpPlainTool,
  type McpPromptHandler,
  type McpResourceContents,
  type McpResourceTemplateHandler,
  type McpUriVariableName,
  type McpUriVariables,
  type McpToolHooks,
  type McpToolResult,
} from '../../lib/index.js';
import { post, rpc } from '../support/mcp-client.js';
import { accept, callTool } from '../support/mrtr-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * Handlers and declarations typed the way Nest code types them, with interfaces and classes rather than type
 * literals: this file type-checks only while the public types accept them (`npm test` type-checks before it runs),
 * and the app below serves what they declare.
 */

/** A JSON Schema typed by an interface, as `JSONSchema7` of `@types/json-schema` types one (no index signature). */
interface SchemaInterface {
  type?: string;
  properties?: { [name: string]: SchemaInterface };
  required?: string[];
  minLength?: number;
}

interface GreetArgs {
  name: string;
}

/** A DTO class, as a Nest controller types its body. */
class GreetDto {
  name!: string;
}

const GREET_SCHEMA: SchemaInterface = { type: 'object', properties: { name: { type: 'string', minLength: 1 } }, required: ['name'] };

@McpTool({ name: 'greet', description: 'Greets by name.', inputSchema: GREET_SCHEMA, outputSchema: { type: 'object', properties: { text: { type: 'string' } } } })
class GreetTool implements McpPlainTool {
  run(args: GreetArgs) {
    return { text: `Hello, ${args.name}` };
  }
}

@McpTool({ name: 'greet_dto', description: 'Greets by name, arguments typed by a class.', inputSchema: GREET_SCHEMA })
class GreetDtoTool implements McpPlainTool {
  run(args: GreetDto, _ctx: McpContext) {
    return `Hi, ${args.name}`;
  }
}

/** A form kept in a constant, checked where it is written and still typing the answer. */
const CONFIRM_FORM = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } as const satisfies McpElicitFormSchema;

/** A helper that builds the result it returns as written, naming its type. */
function notFound(name: string): McpToolResult {
  return {
    isError: true,
    content: [
      { type: 'text', text: `No one is called ${name}.`, annotations: { audience: ['user', 'assistant'], priority: 0.8 } },
      { type: 'resource_link', uri: 'notes://readme', name: 'readme', size: 7, icons: [{ src: 'https://app.example.com/readme.png', sizes: ['48x48'] }] },
    ],
  };
}

@McpTool({ name: 'find', description: 'Finds someone, asking first.', inputSchema: GREET_SCHEMA })
class FindTool implements McpPlainTool {
  async run(args: GreetArgs, ctx: McpContext) {
    const answer = await ctx.elicit({ message: `Look for ${args.name}?`, requestedSchema: CONFIRM_FORM });
    if (answer.action === 'accept') {
      const confirmed: boolean = answer.content.confirm;
      void confirmed;
    }
    return notFound(args.name);
  }
}

interface TaskCounts {
  open: number;
}

interface NoteExample {
  title: string;
}

@McpTool({ name: 'notes', description: 'Notes.' })
class NotesTool implements Partial<McpToolHooks> {
  @McpAction({
    description: 'Add a note',
    properties: { title: { type: 'string', minLength: 1 } as SchemaInterface },
    required: ['title'],
    examples: [{ title: 'todo' } as NoteExample],
  })
  add(data: NoteExample) {
    return ok({ added: data.title }, { title: data.title }); // a hint context, so hints() is asked
  }

  actionContext(): TaskCounts {
    return { open: 3 };
  }

  hints(): McpHint[] {
    const example: NoteExample = { title: 'next' };
    return [{ tool: 'notes', action: 'add', description: 'Add another', example }];
  }
}

interface ReviewArgs {
  title: string;
  tone?: string;
  folder?: string;
}

/** One completer, typed once, for a prompt argument and a template variable alike. */
const FOLDERS: McpCompleter = (value) => ['work', 'home'].filter((folder) => folder.startsWith(value));

@McpPrompt({ name: 'review', description: 'Asks for a review.', arguments: [{ name: 'title', required: true }, { name: 'tone' }, { name: 'folder', complete: FOLDERS }] })
class ReviewPrompt implements McpPromptHandler<ReviewArgs> {
  get(args: ReviewArgs, _ctx: McpHandlerContext) {
    return `Review "${args.title}", ${args.tone ?? 'gently'}.`;
  }
}

@McpResource({ uri: 'notes://readme', name: 'readme', annotations: { audience: ['user'] as const } })
class ReadmeResource {
  read(): McpResourceContents {
    return { text: 'read me' };
  }
}

/** Properties shared by several actions, typed as a map of schemas, as a module of shared schemas exports them. */
const TENANT_PROPERTIES: Record<string, JsonSchema> = { tenant: { type: 'string', minLength: 1 } };

/** A decorator of the team's own that adds a property to every action it declares, as a tracing wrapper would. */
function TracedAction(options: McpActionOptions): MethodDecorator {
  return McpAction({ ...options, properties: { ...options.properties, traceId: { type: 'string' } }, defaults: { ...options.defaults, traceId: 'none' } });
}

@McpTool({ name: 'tenants', description: 'Tenants.' })
class TenantsTool {
  @TracedAction({ description: 'Ping a tenant', properties: { ...TENANT_PROPERTIES, id: { type: 'integer' } }, required: ['tenant'] })
  ping(data: { tenant: string; traceId: string }) {
    return { pinged: data.tenant, traceId: data.traceId };
  }
}

const NOTE_TEMPLATE = 'notes://{folder}/{title}{?rev}';

/** A template whose completers and read name its own variables, checked as the code compiles. */
@McpResourceTemplate({ uriTemplate: NOTE_TEMPLATE, name: 'note', complete: { folder: FOLDERS } })
class NoteTemplate implements McpResourceTemplateHandler<typeof NOTE_TEMPLATE> {
  read(_uri: string, { folder, title, rev }: McpUriVariables<typeof NOTE_TEMPLATE>) {
    return `${folder}/${title}@${rev ?? 'latest'}`;
  }
}

// @ts-expect-error: complete names "titel", which is no variable of the template
@McpResourceTemplate({ uriTemplate: 'drafts://{title}', name: 'draft', complete: { titel: () => [] } })
export class MisnamedTemplate {}

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** The variable names under every operator and modifier (level 4's, which module init refuses, too), and of a non-literal template. */
export const VARIABLE_NAMES: [
  Same<McpUriVariableName<'file:///{+path}'>, 'path'>,
  Same<McpUriVariableName<'x://{#frag}{.ext}{/seg*}{;p:3}{?q,n}{&more}'>, 'frag' | 'ext' | 'seg' | 'p' | 'q' | 'n' | 'more'>,
  Same<McpUriVariableName<'x://{user.name}/{a,b*,c:2}'>, 'user.name' | 'a' | 'b' | 'c'>,
  Same<McpUriVariableName<'x://static'>, never>,
  Same<McpUriVariableName<string>, string>,
] = [true, true, true, true, true];

// @ts-expect-error: a prompt's arguments are strings, never a number
type CountPrompt = McpPromptHandler<{ count: number }>;

// @ts-expect-error: run's arguments are an object, never a string
const notAnObject: McpPlainTool = { run: (args: string) => args };
// @ts-expect-error: a contents item is text or a blob, never both
const both: McpResourceContents = { text: 'a', blob: 'Yg==' };
// @ts-expect-error: a content block's audience holds roles, "user" and "assistant"
const forTheModel: McpContentBlock = { type: 'text', text: 'a', annotations: { audience: ['model'] } };
void [notAnObject, both, forTheModel, undefined as CountPrompt | undefined];

describe('handlers and declarations typed by interfaces and classes', () => {
  let app: TestApp;
  beforeAll(async () => {
    const origins = ['https://app.example.com'] as const;
    const served = [GreetTool, GreetDtoTool, FindTool, NotesTool, ReviewPrompt, ReadmeResource, NoteTemplate, TenantsTool] as const;
    app = await createTestApp({ providers: [...served], options: { allowedOrigins: origins, serves: served } });
  });
  afterAll(() => app?.close());

  it('serves a plain tool whose schema and arguments are interfaces, and one whose arguments are a class', async () => {
    const greeted = await post(app.server, rpc('tools/call', { name: 'greet', arguments: { name: 'Ada' } }));
    expect(greeted.body.result.structuredContent).toEqual({ text: 'Hello, Ada' });
    const refused = await post(app.server, rpc('tools/call', { name: 'greet', arguments: { name: '' } }));
    expect(refused.body.result.isError).toBe(true);
    const dto = await post(app.server, rpc('tools/call', { name: 'greet_dto', arguments: { name: 'Grace' } }));
    expect(dto.body.result.content[0].text).toBe('Hi, Grace');
  });

  it('asks with a form typed McpElicitFormSchema, then sends a result typed McpToolResult as written', async () => {
    const asked = await callTool(app.server, 'find', { name: 'Nobody' });
    const [key, request] = Object.entries(asked.body.result.inputRequests as Record<string, { params: { requestedSchema: unknown } }>)[0]!;
    expect(request.params.requestedSchema).toEqual(CONFIRM_FORM);
    const retried = await callTool(
      app.server,
      'find',
      { name: 'Nobody' },
      { inputResponses: { [key]: accept({ confirm: true }) }, requestState: asked.body.result.requestState },
    );
    expect(retried.body.result).toMatchObject({
      resultType: 'complete',
      isError: true,
      content: [
        { type: 'text', text: 'No one is called Nobody.', annotations: { audience: ['user', 'assistant'], priority: 0.8 } },
        { type: 'resource_link', uri: 'notes://readme', size: 7, icons: [{ src: 'https://app.example.com/readme.png' }] },
      ],
    });
  });

  it('accepts options typed McpModuleAsyncOptions (checked as it compiles) and builds a mount from them', () => {
    const asyncOptions: McpModuleAsyncOptions = { useFactory: () => ({ serverInfo: { name: 'typed', version: '1.0.0' } }), path: 'typed' };
    expect(McpModule.forRootAsync(asyncOptions).module).toBe(McpModule);
  });

  it('serves an action whose schema, example, context and hints are interfaces', async () => {
    const added = await post(app.server, rpc('tools/call', { name: 'notes', arguments: { action: 'add', data: { title: 'todo' } } }));
    const answer = JSON.parse(added.body.result.content[0].text);
    expect(answer).toMatchObject({ added: 'todo', context: { open: 3 }, hints: [{ tool: 'notes', action: 'add', example: { title: 'next' } }] });
  });

  it('serves an action declared through a wrapper decorator from spread property maps', async () => {
    const pinged = await post(app.server, rpc('tools/call', { name: 'tenants', arguments: { action: 'ping', data: { tenant: 'acme' } } }));
    expect(JSON.parse(pinged.body.result.content[0].text)).toEqual({ pinged: 'acme', traceId: 'none' });
  });

  it('reads and completes a template through the variables its type names, and a prompt argument with its completer', async () => {
    const read = await post(app.server, rpc('resources/read', { uri: 'notes://work/plan?rev=3' }));
    expect(read.body.result.contents[0].text).toBe('work/plan@3');
    const completed = await post(app.server, rpc('completion/complete', { ref: { type: 'ref/resource', uri: NOTE_TEMPLATE }, argument: { name: 'folder', value: 'w' } }));
    expect(completed.body.result.completion.values).toEqual(['work']);
    const argument = await post(app.server, rpc('completion/complete', { ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'folder', value: 'h' } }));
    expect(argument.body.result.completion.values).toEqual(['home']);
  });

  it('serves a prompt whose arguments are an interface, and a resource declared with readonly lists', async () => {
    const prompt = await post(app.server, rpc('prompts/get', { name: 'review', arguments: { title: 'plan' } }));
    expect(prompt.body.result.messages[0].content.text).toBe('Review "plan", gently.');
    const read = await post(app.server, rpc('resources/read', { uri: 'notes://readme' }));
    expect(read.body.result.contents[0].text).toBe('read me');
  });
});
