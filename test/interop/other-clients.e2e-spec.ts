import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { createMCPClient, ElicitationRequestSchema } from '@ai-sdk/mcp';
import { createMCPClient as createMCPClient100, ElicitationRequestSchema as ElicitationRequestSchema100 } from '@ai-sdk/mcp-1.0.0';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

import { firstText } from '../support/client-result.js';
import { NODE_22, RUNNER, ensureRunner } from '../support/node22-runner.js';
import { SAMPLE_TOOL_NAMES, sampleResourceUris, startSampleApp } from '../support/sample-app.js';
import type { TestApp } from '../support/test-app.js';
import { nextEvent } from '../support/wait.js';

// Clients other than the official SDKs, each at its defaults against the sample app: the Vercel AI SDK's MCP
// client (a transport of its own), 1.x (2025 revisions) and 2.x (2026-07-28, on Node 22), and mcp-remote, the stdio
// bridge desktop apps use to reach an HTTP server.

/** The user's answer to the next elicitation. */
let accept = false;
const elicitationAnswer = () => (accept ? { action: 'accept' as const, content: { confirm: true } } : { action: 'decline' as const });

/** The sample app and a client `connect` opens to it for the suite; the client closes first, then the server. */
function sampleAndClient<C extends { close(): Promise<void> }>(connect: (url: string) => Promise<C>): () => C {
  let sample: TestApp | undefined;
  let client: C | undefined;
  beforeAll(async () => {
    sample = await startSampleApp();
    client = await connect(`http://127.0.0.1:${(sample.server.address() as AddressInfo).port}/mcp`);
  });
  afterAll(async () => {
    await client?.close();
    await sample?.close();
  });
  return () => client!;
}

/** An AI SDK client's tools, as far as these tests run them. */
type AiSdkTools = Record<string, { execute: (args: Record<string, unknown>, options: { toolCallId: string; messages: [] }) => unknown }>;

/** The sample's `delete_note` through an AI SDK client: a declined elicitation keeps the note, an accepted one deletes it. */
async function expectElicitationRound(tools: AiSdkTools): Promise<void> {
  const remove = async () => firstText(await tools.delete_note!.execute({ title: 'ideas' }, { toolCallId: 'call-2', messages: [] }));
  accept = false;
  expect(await remove()).toEqual({ text: 'Kept "ideas".' });
  accept = true;
  expect(await remove()).toEqual({ text: 'Deleted "ideas".' });
}

describe('the sample app with the Vercel AI SDK MCP client (@ai-sdk/mcp, defaults)', () => {
  const client = sampleAndClient(async (url) => {
    const connected = await createMCPClient({ transport: { type: 'http', url }, capabilities: { elicitation: {} } });
    connected.onElicitationRequest(ElicitationRequestSchema, elicitationAnswer);
    return connected;
  });

  it('connects and reads the server info', () => {
    expect(client().serverInfo).toMatchObject({ name: 'nest-mcp-sample', version: '0.1.0' });
  });

  it('turns the listed tools into AI SDK tools and runs one', async () => {
    const tools = await client().tools();
    expect(Object.keys(tools).sort()).toEqual(SAMPLE_TOOL_NAMES);
    const run = (args: Record<string, unknown>) => tools.echo!.execute(args, { toolCallId: 'call-1', messages: [] });
    expect(firstText(await run({ text: 'hello over the AI SDK' }))).toEqual({ text: 'hello over the AI SDK' });
    const refused = firstText(await run({ text: 42 }));
    expect(refused.isError).toBe(true);
    expect(JSON.parse(refused.text)).toMatchObject({ error: 'invalid_values', invalid: [{ path: 'text' }] });
  });

  it('finishes an elicitation round: a decline keeps the note, an accept deletes it', async () => {
    await expectElicitationRound(await client().tools());
  });

  it('lists and reads resources, and is told which URI is unknown', async () => {
    expect((await client().listResources()).resources.map((r) => r.uri)).toEqual(sampleResourceUris(true));
    expect((await client().listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['notes://notes/{title}']);
    expect((await client().readResource({ uri: 'notes://notes/todo' })).contents).toEqual([
      { uri: 'notes://notes/todo', mimeType: 'text/plain', text: 'write the docs, ship the release' },
    ]);
    await expect(client().readResource({ uri: 'notes://notes/nope' })).rejects.toThrow('Resource not found: "notes://notes/nope"');
  });

  it('lists and gets prompts, and completes a prompt argument', async () => {
    expect((await client().experimental_listPrompts()).prompts.map((p) => p.name)).toEqual(['review_note']);
    const prompt = await client().experimental_getPrompt({ name: 'review_note', arguments: { title: 'todo', tone: 'blunt' } });
    expect(prompt.messages.map((m) => m.content.type)).toEqual(['resource', 'text']);
    expect(prompt.messages[1]!.content).toEqual({ type: 'text', text: 'Review the note above for clarity. Be blunt.' });
    const completed = await client().complete({ ref: { type: 'ref/prompt', name: 'review_note' }, argument: { name: 'title', value: 'gr' } });
    expect(completed.completion.values).toEqual(['groceries']);
  });
});

// 1.0.0 to 1.0.50 dispatch only SSE events whose `event` field is `message` (an unnamed event is one by the SSE
// standard); before the answer stream named its events, every SSE answer left these releases waiting for ever.
describe('the sample app with the first AI SDK MCP client release (@ai-sdk/mcp 1.0.0, defaults): SSE answers arrive', () => {
  const client = sampleAndClient(async (url) => {
    const connected = await createMCPClient100({ transport: { type: 'http', url }, capabilities: { elicitation: {} } });
    connected.onElicitationRequest(ElicitationRequestSchema100, elicitationAnswer);
    return connected;
  });

  it('runs a tool whose debug log lines make its answer an SSE stream (legacyLogLevel defaults to debug)', async () => {
    const tools = await client().tools();
    const reindexed = await tools.reindex_notes!.execute({}, { toolCallId: 'call-1', messages: [] });
    expect(firstText(reindexed)).toEqual({ text: 'Reindexed 3 notes.' });
  });

  it('finishes an elicitation round, whose input request travels on the SSE stream', async () => {
    await expectElicitationRound(await client().tools());
  });
});

/** What `ai-sdk-v2-client.mjs` prints: what the AI SDK 2.x client saw. */
interface AiSdkV2Run {
  serverInfo: Record<string, unknown>;
  tools: string[];
  echo: string;
  refused: string;
  declined: string;
  accepted: string;
  asked: string[];
  resources: string[];
  read: unknown[];
  unknownUri: string;
  prompt: string[];
  completion: string[];
  wire: { method: string; version: string | null; mcpMethod: string | null; status: number }[];
}

describe('the sample app with the Vercel AI SDK MCP client 2.x (@ai-sdk/mcp 2, 2026-07-28, defaults, on Node 22)', () => {
  let seen: AiSdkV2Run;
  beforeAll(async () => {
    await ensureRunner();
    const sample = await startSampleApp();
    try {
      const url = `http://127.0.0.1:${(sample.server.address() as AddressInfo).port}/mcp`;
      const { stdout } = await promisify(execFile)(NODE_22, [join(import.meta.dirname, 'ai-sdk-v2-client.mjs'), url, RUNNER], { timeout: 60_000 });
      seen = JSON.parse(stdout) as AiSdkV2Run;
    } finally {
      await sample.close();
    }
  }, 360_000);

  it('opens with server/discover and speaks 2026-07-28 on every request, its Mcp-Method header mirroring the body', () => {
    expect(seen.serverInfo).toMatchObject({ name: 'nest-mcp-sample', version: '0.1.0' });
    expect(seen.wire[0]).toEqual({ method: 'server/discover', version: '2026-07-28', mcpMethod: 'server/discover', status: 200 });
    expect(seen.wire.map((post) => post.method)).not.toContain('initialize');
    expect(seen.wire.filter((post) => post.version !== '2026-07-28' || post.mcpMethod !== post.method)).toEqual([]);
  });

  it('turns the listed tools into AI SDK tools and runs one; a refused call names the gate', () => {
    expect(seen.tools).toEqual(SAMPLE_TOOL_NAMES);
    expect(seen.echo).toBe('hello over the AI SDK 2');
    expect(seen.refused).toBe('invalid_values');
  });

  it('finishes an elicitation round through input_required and a retry (MRTR): a decline keeps the note, an accept deletes it', () => {
    expect(seen.asked).toEqual(['Delete the note "ideas"? This cannot be undone.', 'Delete the note "ideas"? This cannot be undone.']);
    expect([seen.declined, seen.accepted]).toEqual(['Kept "ideas".', 'Deleted "ideas".']);
    // Each round is a call answered input_required, then the same call again with the answer.
    expect(seen.wire.filter((post) => post.method === 'tools/call')).toHaveLength(6);
  });

  it('lists and reads resources, and is told which URI is unknown', () => {
    expect(seen.resources).toEqual(sampleResourceUris(true));
    expect(seen.read).toEqual([{ uri: 'notes://notes/todo', mimeType: 'text/plain', text: 'write the docs, ship the release' }]);
    expect(seen.unknownUri).toContain('Resource not found: "notes://notes/nope"');
  });

  it('gets a prompt and completes its argument', () => {
    expect(seen.prompt).toEqual(['resource', 'text']);
    expect(seen.completion).toEqual(['groceries']);
  });
});

describe('the sample app through mcp-remote (the stdio bridge), with the official SDK v1 client on its stdio', () => {
  let sample: TestApp;
  let client: Client;
  let configDir: string | undefined;
  beforeAll(async () => {
    sample = await startSampleApp();
    // mcp-remote keeps OAuth state in a directory of its own; a fresh one per run, so nothing outside the test is read or written.
    configDir = await mkdtemp(join(tmpdir(), 'mcp-remote-'));
    const url = `http://127.0.0.1:${(sample.server.address() as AddressInfo).port}/mcp`;
    const bridge = createRequire(import.meta.url).resolve('mcp-remote/dist/proxy.js');
    const env = { ...(process.env as Record<string, string>), MCP_REMOTE_CONFIG_DIR: configDir };
    client = new Client({ name: 'desktop-app', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => elicitationAnswer());
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [bridge, url], env, stderr: 'ignore' }));
  }, 30_000);
  // The bridge (the client's child process) first, then the server, then the bridge's directory.
  afterAll(async () => {
    await client?.close();
    await sample?.close();
    if (configDir) await rm(configDir, { recursive: true, force: true });
  });

  it('connects through the bridge (its OAuth discovery finds none) and lists the tools', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'nest-mcp-sample' });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(SAMPLE_TOOL_NAMES);
  });

  it('calls a tool and receives its progress through the bridge', async () => {
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'bridged' } }))).toEqual({ text: 'bridged' });
    const progress: number[] = [];
    const reindexed = await client.callTool({ name: 'reindex_notes', arguments: {} }, undefined, { onprogress: (p) => progress.push(p.progress) });
    expect(firstText(reindexed)).toEqual({ text: 'Reindexed 3 notes.' });
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it("cancels a call through the bridge: the client's notifications/cancelled stops the tool, though the bridge keeps the request open", async () => {
    const stop = new AbortController();
    const heard = nextEvent('mcp:request:cancelled');
    const call = client.callTool({ name: 'reindex_notes', arguments: {} }, undefined, { signal: stop.signal, onprogress: () => stop.abort('the user pressed stop') });
    await expect(call).rejects.toThrow('the user pressed stop');
    expect(await heard).toEqual({ mount: '/mcp', method: 'tools/call', id: expect.any(Number), by: 'notification', reason: 'the user pressed stop' });
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'still connected' } }))).toEqual({ text: 'still connected' });
  });

  it('finishes an elicitation round through the bridge', async () => {
    accept = false;
    expect(firstText(await client.callTool({ name: 'delete_note', arguments: { title: 'groceries' } }))).toEqual({ text: 'Kept "groceries".' });
    accept = true;
    expect(firstText(await client.callTool({ name: 'delete_note', arguments: { title: 'groceries' } }))).toEqual({ text: 'Deleted "groceries".' });
  });

  it('reads a resource, gets a prompt and completes through the bridge', async () => {
    expect((await client.readResource({ uri: 'notes://index' })).contents).toHaveLength(1);
    expect((await client.getPrompt({ name: 'review_note', arguments: { title: 'todo' } })).messages).toHaveLength(2);
    const completed = await client.complete({ ref: { type: 'ref/resource', uri: 'notes://notes/{title}' }, argument: { name: 'title', value: 't' } });
    expect(completed.completion.values).toEqual(['todo']);
    await expect(client.getPrompt({ name: 'review_note', arguments: {} })).rejects.toThrow('needs argument "title"');
  });
});
