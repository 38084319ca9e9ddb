import type { AddressInfo } from 'node:net';

import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Client as ClientV2, ResourceNotFoundError, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV110 } from '@modelcontextprotocol/sdk-1.10/client/index.js';
import { StreamableHTTPClientTransport as TransportV110 } from '@modelcontextprotocol/sdk-1.10/client/streamableHttp.js';
import { NotFoundException, VersioningType } from '@nestjs/common';

import {
  InProcessEventBus,
  McpEventBus,
  McpResourceTemplate,
  McpTool,
  type McpContext,
  type McpPlainTool,
  type McpResourceTemplateHandler,
  type McpUriVariables,
} from '../../lib/index.js';
import { readSessionId } from '../../lib/protocol/session-id.js';
import { firstText } from '../support/client-result.js';
import { recordEvents } from '../support/mcp-client.js';
import { SAMPLE_TOOL_NAMES, sampleResourceUris, startSampleApp, useSampleApp } from '../support/sample-app.js';
import { PrimesTool, TotalTool } from '../support/structured-tools.js';
import { useTestApp } from '../support/suite-app.js';
import type { TestApp } from '../support/test-app.js';
import { nextEvent, until } from '../support/wait.js';

/** What an interop cell needs of a connected client, whichever library it comes from. */
interface Connected {
  /** The protocol revision the client ended up speaking. */
  readonly version: string | undefined;
  listTools(): Promise<string[]>;
  callTool(name: string, args: Record<string, unknown>, onProgress?: (progress: number) => void, signal?: AbortSignal): Promise<{ isError?: boolean; text: string }>;
  /** The resource, prompt and completion calls, which v1 and v2 name alike. */
  readonly calls: ResourcePromptCalls;
  close(): Promise<void>;
}

/** What the cells call on a client beside tools (the shapes they read, a subset of both libraries'). */
interface ResourcePromptCalls {
  listResources(): Promise<{ resources: { uri: string }[] }>;
  readResource(params: { uri: string }): Promise<{ contents: { uri: string; text?: string }[] }>;
  listPrompts(): Promise<{ prompts: { name: string }[] }>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<{ messages: { content: { type: string } }[] }>;
  complete(params: { ref: { type: 'ref/prompt'; name: string }; argument: { name: string; value: string } }): Promise<{ completion: { values: string[] } }>;
}

/** The user's answer to every elicitation a cell's client receives. */
type Answer = { action: 'accept'; content: Record<string, string | number | boolean | string[]> } | { action: 'decline' };

/** `@modelcontextprotocol/sdk` v1 at its defaults: `initialize` (2025-11-25), the answer to elicitation POSTed back. */
async function v1(url: URL, answer: () => Answer): Promise<Connected> {
  const client = new ClientV1({ name: 'interop-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => answer());
  const transport = new TransportV1(url);
  await client.connect(transport);
  return {
    version: transport.protocolVersion,
    listTools: async () => (await client.listTools()).tools.map((t) => t.name),
    callTool: async (name, args, onProgress, signal) =>
      firstText(await client.callTool({ name, arguments: args }, undefined, { ...(onProgress && { onprogress: (p) => onProgress(p.progress) }), signal })),
    calls: client satisfies ResourcePromptCalls,
    close: () => client.close(),
  };
}

/** `@modelcontextprotocol/client` v2, at its default negotiation (legacy) or with `versionNegotiation: {mode: 'auto'}`. */
async function v2(url: URL, answer: () => Answer, mode?: 'auto'): Promise<Connected> {
  const client = new ClientV2({ name: 'interop-v2', version: '2.0.0' }, { capabilities: { elicitation: {} }, ...(mode && { versionNegotiation: { mode } }) });
  client.setRequestHandler('elicitation/create', async () => answer());
  const transport = new TransportV2(url);
  await client.connect(transport);
  return {
    version: (transport as unknown as { protocolVersion?: string }).protocolVersion ?? client.getNegotiatedProtocolVersion?.(),
    listTools: async () => (await client.listTools()).tools.map((t) => t.name),
    callTool: async (name, args, onProgress, signal) =>
      firstText(await client.callTool({ name, arguments: args }, { ...(onProgress && { onprogress: (p: { progress: number }) => onProgress(p.progress) }), signal })),
    calls: client satisfies ResourcePromptCalls,
    close: () => client.close(),
  };
}

const CLIENTS = [
  ['@modelcontextprotocol/sdk v1 (defaults)', (url: URL, answer: () => Answer) => v1(url, answer), '2025-11-25'],
  ['@modelcontextprotocol/client v2 (defaults)', (url: URL, answer: () => Answer) => v2(url, answer), '2025-11-25'],
  ["@modelcontextprotocol/client v2 (versionNegotiation: 'auto')", (url: URL, answer: () => Answer) => v2(url, answer, 'auto'), '2026-07-28'],
] as const;

/** Connects a client to the suite's app at /mcp, declining every elicitation; the client is closed after each case. */
function useClient(app: () => TestApp, connect: (typeof CLIENTS)[number][1]): () => Promise<Connected> {
  let c: Connected | undefined;
  afterEach(async () => {
    await c?.close();
    c = undefined;
  });
  return async () => (c = await connect(new URL(`http://127.0.0.1:${(app().server.address() as AddressInfo).port}/mcp`), () => ({ action: 'decline' })));
}

describe.each(CLIENTS)('the sample app with %s', (_name, connect, revision) => {
  const server = useSampleApp();
  const url = () => new URL(`http://127.0.0.1:${(server().address() as AddressInfo).port}/mcp`);
  let answer: Answer = { action: 'decline' };
  let client: Connected | undefined;
  const connected = async () => (client = await connect(url(), () => answer));
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  it(`connects and speaks ${revision}`, async () => {
    expect((await connected()).version).toBe(revision);
  });

  it('lists the tools and calls one', async () => {
    const c = await connected();
    expect(await c.listTools()).toEqual(SAMPLE_TOOL_NAMES);
    expect(await c.callTool('echo', { text: 'hello over interop' })).toEqual({ text: 'hello over interop' });
  });

  it('receives progress from a tool that reports it', async () => {
    const c = await connected();
    const progress: number[] = [];
    expect(await c.callTool('reindex_notes', {}, (p) => progress.push(p))).toEqual({ text: 'Reindexed 3 notes.' });
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('cancels a call when its signal aborts: the tool is cancelled once, and the client goes on', async () => {
    const c = await connected();
    const stop = new AbortController();
    const events = await recordEvents(['mcp:request:cancelled'], async () => {
      const heard = nextEvent('mcp:request:cancelled');
      await expect(c.callTool('reindex_notes', {}, () => stop.abort('the user pressed stop'), stop.signal)).rejects.toThrow();
      await heard;
      await new Promise((resolve) => setTimeout(resolve, 50)); // a second report, were there one, would come by now
    });
    // A legacy client sends notifications/cancelled with its reason; a 2026-07-28 client closes the stream.
    const how = revision === '2026-07-28' ? { by: 'close' } : { by: 'notification', reason: 'the user pressed stop' };
    expect(events.map((e) => e.message)).toEqual([{ mount: '/mcp', method: 'tools/call', id: expect.any(Number), ...how }]);
    expect(await c.callTool('echo', { text: 'after the cancel' })).toEqual({ text: 'after the cancel' });
  });

  it('lists and reads resources, gets a prompt, completes an argument, and is told which URI is unknown', async () => {
    const { calls } = await connected();
    expect((await calls.listResources()).resources.map((r) => r.uri)).toEqual(sampleResourceUris(false));
    expect((await calls.readResource({ uri: 'notes://notes/todo' })).contents).toEqual([
      { uri: 'notes://notes/todo', mimeType: 'text/plain', text: 'write the docs, ship the release' },
    ]);
    expect((await calls.listPrompts()).prompts.map((p) => p.name)).toEqual(['review_note']);
    const prompt = await calls.getPrompt({ name: 'review_note', arguments: { title: 'todo' } });
    expect(prompt.messages.map((m) => m.content.type)).toEqual(['resource', 'text']);
    const completed = await calls.complete({ ref: { type: 'ref/prompt', name: 'review_note' }, argument: { name: 'title', value: 'to' } });
    expect(completed.completion.values).toEqual(['todo']);
    await expect(calls.readResource({ uri: 'notes://notes/nope' })).rejects.toThrow('Resource not found: "notes://notes/nope"');
  });

  it('finishes an elicitation round: a decline keeps the note, an accept deletes it', async () => {
    const c = await connected();
    answer = { action: 'decline' };
    expect(await c.callTool('delete_note', { title: 'groceries' })).toEqual({ text: 'Kept "groceries".' });
    answer = { action: 'accept', content: { confirm: true } };
    expect(await c.callTool('delete_note', { title: 'groceries' })).toEqual({ text: 'Deleted "groceries".' });
    expect(await c.callTool('delete_note', { title: 'groceries' })).toEqual({ isError: true, text: 'No note titled "groceries".' });
  });
});

describe('the sample app with @modelcontextprotocol/sdk 1.10 (the first release with a Streamable HTTP client, which speaks 2024-11-05)', () => {
  const server = useSampleApp();
  let client: ClientV110 | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });
  const connected = async () => {
    client = new ClientV110({ name: 'interop-v1.10', version: '1.0.0' });
    const transport = new TransportV110(new URL(`http://127.0.0.1:${(server().address() as AddressInfo).port}/mcp`));
    await client.connect(transport);
    return { client, transport };
  };

  it('connects at its defaults, negotiating 2024-11-05 (a release that takes no other revision), which its session id carries', async () => {
    expect(readSessionId((await connected()).transport.sessionId)?.version).toBe('2024-11-05');
  });

  it('lists and calls tools, with progress, lists and reads resources, gets a prompt, completes an argument, and is told which URI is unknown', async () => {
    const { client: c } = await connected();
    expect((await c.listTools()).tools.map((t) => t.name)).toEqual(SAMPLE_TOOL_NAMES);
    expect(firstText(await c.callTool({ name: 'echo', arguments: { text: 'from 1.10' } }))).toEqual({ text: 'from 1.10' });
    const progress: number[] = [];
    const reindexed = await c.callTool({ name: 'reindex_notes', arguments: {} }, undefined, { onprogress: (p) => void progress.push(p.progress) });
    expect(firstText(reindexed)).toEqual({ text: 'Reindexed 3 notes.' });
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect((await c.readResource({ uri: 'notes://notes/todo' })).contents).toEqual([
      { uri: 'notes://notes/todo', mimeType: 'text/plain', text: 'write the docs, ship the release' },
    ]);
    expect((await c.listResources()).resources.map((r) => r.uri)).toEqual(sampleResourceUris(false));
    expect((await c.listPrompts()).prompts.map((p) => p.name)).toEqual(['review_note']);
    await expect(c.readResource({ uri: 'notes://notes/nope' })).rejects.toThrow('Resource not found: "notes://notes/nope"');
    expect((await c.getPrompt({ name: 'review_note', arguments: { title: 'todo' } })).messages).toHaveLength(2);
    expect((await c.complete({ ref: { type: 'ref/prompt', name: 'review_note' }, argument: { name: 'title', value: 'to' } })).completion.values).toEqual(['todo']);
  });
  // The -32021 message (elicitation came with 2025-06-18) is pinned by the eras e2e; here the sample tool catches it.
  it('is refused an elicitation at once (-32021), which the sample tool answers as a result the model can act on, and goes on', async () => {
    const { client: c } = await connected();
    expect(firstText(await c.callTool({ name: 'delete_note', arguments: { title: 'groceries' } }))).toEqual({
      isError: true,
      text: 'Kept "groceries": this client cannot ask the user to confirm. Ask them to delete it themselves.',
    });
    expect((await c.listResources()).resources.map((r) => r.uri)).toEqual(sampleResourceUris(false));
  });
});

describe("change notifications with @modelcontextprotocol/client v2 (versionNegotiation: 'auto'): subscriptions/listen", () => {
  let sample: TestApp;
  let bus: InProcessEventBus;
  let client: ClientV2 | undefined;
  const updated: string[] = [];
  const toolLists: string[][] = [];
  beforeAll(async () => {
    sample = await startSampleApp();
    bus = sample.app.get(McpEventBus);
  });
  afterAll(() => sample.close());
  afterEach(async () => {
    await client?.close();
    client = undefined;
    updated.length = 0;
    toolLists.length = 0;
    await until(() => bus.subscriberCount === 0, 'every listen stream to end');
  });

  /** Connects a v2 client speaking 2026-07-28, its tools list refreshed on each change (auto-opened listen). */
  const connect = async () => {
    const url = new URL(`http://127.0.0.1:${(sample.server.address() as AddressInfo).port}/mcp`);
    client = new ClientV2(
      { name: 'interop-listen', version: '2.0.0' },
      {
        capabilities: { elicitation: {} },
        versionNegotiation: { mode: 'auto' },
        listChanged: { tools: { debounceMs: 0, onChanged: (_error, tools) => toolLists.push((tools ?? []).map((t) => t.name)) } },
      },
    );
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
    client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
    await client.connect(new TransportV2(url));
    return client;
  };

  it('auto-opens a listen stream for its listChanged handlers and refreshes the tools list when a change is published', async () => {
    const c = await connect();
    expect(c.autoOpenedSubscription?.honoredFilter).toEqual({ toolsListChanged: true });
    await until(() => bus.subscriberCount === 1, 'the auto-opened stream to subscribe');
    await bus.publish({ kind: 'toolsListChanged' });
    await until(() => toolLists.length === 1, 'the refreshed tools list');
    expect(toolLists[0]).toEqual(SAMPLE_TOOL_NAMES);
  });

  it("opens a listen stream for a resource, hears the sample's update when a note is deleted, and ends it on close", async () => {
    const c = await connect();
    const subscription = await c.listen({ resourceSubscriptions: ['notes://index'] });
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: ['notes://index'] });
    await c.callTool({ name: 'delete_note', arguments: { title: 'todo' } });
    // A sentinel after it (a sub-resource of the subscribed URI): nothing else reached the stream in between.
    await bus.publish({ kind: 'resourceUpdated', uri: 'notes://index/sentinel' });
    await until(() => updated.length === 2, 'the resource update and the sentinel');
    expect(updated).toEqual(['notes://index', 'notes://index/sentinel']);
    await subscription.close();
    expect(await subscription.closed).toBe('local');
    await until(() => bus.subscriberCount === 1, 'the closed stream to unsubscribe (the auto-opened one stays)');
  });

  it('sees its stream end gracefully when the server shuts down', async () => {
    const own = await startSampleApp();
    const c = new ClientV2({ name: 'interop-shutdown', version: '2.0.0' }, { versionNegotiation: { mode: 'auto' } });
    let stopped = false;
    try {
      await c.connect(new TransportV2(new URL(`http://127.0.0.1:${(own.server.address() as AddressInfo).port}/mcp`)));
      const subscription = await c.listen({ toolsListChanged: true });
      stopped = true;
      await own.close();
      expect(await subscription.closed).toBe('graceful');
    } finally {
      await c.close();
      if (!stopped) await own.close();
    }
  });
});

describe.each(CLIENTS)('structured output whose root is an array (2026-07-28 allows it; the 2025 revisions do not), with %s', (_name, connect, _revision) => {
  const client = useClient(useTestApp({ providers: [PrimesTool, TotalTool] }), connect);

  it('lists every tool and calls the array one, its JSON in the text block', async () => {
    const c = await client();
    expect(await c.listTools()).toEqual(['help', 'primes', 'total']);
    expect(await c.callTool('primes', {})).toMatchObject({ text: '[2,3,5]' });
    expect(await c.callTool('total', {})).toMatchObject({ text: '{"total":3}' });
  });
});

describe.each(CLIENTS)('a host with header API versioning and a defaultVersion (the mount takes no version), with %s', (_name, connect, revision) => {
  const client = useClient(
    useTestApp({
      providers: [PrimesTool],
      configure: (host) => host.enableVersioning({ type: VersioningType.HEADER, header: 'X-API-Version', defaultVersion: '1' }),
    }),
    connect,
  );

  it('connects at the mount path, naming no version, and calls a tool', async () => {
    const c = await client();
    expect(c.version).toBe(revision);
    expect(await c.listTools()).toEqual(['help', 'primes']);
    expect(await c.callTool('primes', {})).toMatchObject({ text: '[2,3,5]' });
  });
});

/** A resource template whose `read` refuses with Nest's `NotFoundException`, as a service behind it would. */
@McpResourceTemplate({ uriTemplate: 'users://{id}', name: 'user', mimeType: 'text/plain' })
class UserResource implements McpResourceTemplateHandler {
  read(_uri: string, { id }: McpUriVariables) {
    if (id !== '1') throw new NotFoundException(`User ${String(id)} not found`);
    return 'Ada';
  }
}

describe.each(CLIENTS.map(([name, connect]) => [name, connect, name.includes('client v2') ? ResourceNotFoundError : McpError] as const))(
  'a read refused with a Nest NotFoundException, with %s',
  (_name, connect, errorClass) => {
    const client = useClient(useTestApp({ providers: [UserResource] }), connect);

    it("rejects with the client's error for a resource not found: -32602, data exactly {uri}, the exception's message", async () => {
      const c = await client();
      expect((await c.calls.readResource({ uri: 'users://1' })).contents).toEqual([{ uri: 'users://1', mimeType: 'text/plain', text: 'Ada' }]);
      const refused = await c.calls.readResource({ uri: 'users://7' }).catch((thrown: unknown) => thrown);
      expect(refused).toBeInstanceOf(errorClass);
      expect(refused).toMatchObject({ code: -32602, data: { uri: 'users://7' } });
      expect(Object.keys((refused as { data: object }).data)).toEqual(['uri']);
      expect((refused as Error).message).toContain('Resource not found: "users://7" (User 7 not found).');
    });
  },
);

/** Names the client capabilities the call was served with. */
@McpTool({ name: 'capabilities', description: 'Names the declared client capabilities.', inputSchema: { type: 'object' } })
class CapabilitiesTool implements McpPlainTool {
  run(_args: object, ctx: McpContext) {
    return JSON.stringify(ctx.clientCapabilities);
  }
}

describe.each(CLIENTS.filter(([, , revision]) => revision !== '2026-07-28'))('the session id of a legacy initialize, echoed by %s', (_name, connect, _revision) => {
  const client = useClient(useTestApp({ providers: [CapabilitiesTool] }), connect);

  it('serves its later calls with the input capabilities it declared in initialize', async () => {
    const c = await client();
    expect(JSON.parse((await c.callTool('capabilities', {})).text)).toEqual({ elicitation: {} });
  });
});
