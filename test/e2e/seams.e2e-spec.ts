import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import {
  Inject,
  Injectable,
  Module,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';

import {
  HmacRequestStateCodec,
  InProcessEventBus,
  McpAuth,
  McpAuthDecision,
  McpConfigurationError,
  McpEventBus,
  McpResource,
  McpResourceTemplate,
  bearerToken,
  ProtocolSchema,
  RequestStateCodec,
  rejectionMarkOf,
  type McpTaskRecord,
  type McpTaskStore,
  type RequestStateOpened,
} from '../../lib/index.js';
import { EchoTool } from '../support/fixture-tools.js';
import { post, rpc } from '../support/mcp-client.js';
import { accept, callTool } from '../support/mrtr-client.js';
import { ConfirmDeleteTool, sideEffects } from '../support/mrtr-tools.js';
import { MustTaskTool, taskCall, tasksRequest, waitForStatus } from '../support/task-tools.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** A dependency the codec below gets injected: where it keeps what it sealed. */
@Injectable()
class PayloadVault {
  readonly kept = new Map<string, string>();
}

/** A codec that hands out handles and keeps payloads server-side, as a store- or KMS-backed one might. */
@Injectable()
class VaultCodec implements RequestStateCodec {
  constructor(private readonly vault: PayloadVault) {}
  seal(payload: string): string {
    const handle = `vault-${this.vault.kept.size + 1}`;
    this.vault.kept.set(handle, payload);
    return handle;
  }
  async open(sealed: string): Promise<RequestStateOpened> {
    const payload = this.vault.kept.get(sealed);
    return payload === undefined ? { ok: false, problem: 'tampered' } : { ok: true, payload };
  }
}

/** A codec that seals one payload to one handle however often it is sealed, and says so (`deterministic`). */
@Injectable()
class DeterministicVaultCodec implements RequestStateCodec {
  readonly deterministic = true;
  readonly handles = new Map<string, string>();
  constructor(private readonly vault: PayloadVault) {}
  seal(payload: string): string {
    let handle = this.handles.get(payload);
    if (handle === undefined) this.handles.set(payload, (handle = `vault-${this.handles.size + 1}`));
    this.vault.kept.set(handle, payload);
    return handle;
  }
  open(sealed: string): RequestStateOpened {
    const payload = this.vault.kept.get(sealed);
    return payload === undefined ? { ok: false, problem: 'tampered' } : { ok: true, payload };
  }
}

/** A fixed resource and a template that lists two more: `resources/list` is paged afresh on every request. */
@McpResource({ uri: 'docs://readme', name: 'readme' })
class ReadmeResource {
  read() {
    return '# Read me';
  }
}

@McpResourceTemplate({ uriTemplate: 'notes://notes/{title}', name: 'note' })
class ListingNoteTemplate {
  read(uri: string) {
    return uri;
  }
  list() {
    return ['a', 'b'].map((title) => ({ uri: `notes://notes/${title}`, name: title }));
  }
}

/** A task store keeping records as JSON text, as a shared (Redis) one would. */
@Injectable()
class JsonTaskStore implements McpTaskStore {
  readonly kept = new Map<string, string>();
  async create(record: McpTaskRecord): Promise<boolean> {
    this.kept.set(record.taskId, JSON.stringify(record));
    return true;
  }
  async get(taskId: string): Promise<McpTaskRecord | undefined> {
    const text = this.kept.get(taskId);
    return text === undefined ? undefined : (JSON.parse(text) as McpTaskRecord);
  }
  async update(record: McpTaskRecord): Promise<void> {
    if (this.kept.has(record.taskId)) this.kept.set(record.taskId, JSON.stringify(record));
  }
}

const CONFIRM = { confirm: accept({ confirm: true }) };

/** Keys that take a while to load, as a JWKS fetch or a secrets manager does: what the verifier below injects. */
const SIGNING_KEYS = Symbol('SIGNING_KEYS');

/** Verifies tokens against the loaded keys; from a module of its own, as `JwtModule`'s `JwtService` is. */
@Injectable()
class TokenVerifier {
  constructor(@Inject(SIGNING_KEYS) private readonly keys: { readonly valid: string }) {}
  subjectOf(token: string | undefined): string | undefined {
    return token === this.keys.valid ? 'alice' : undefined;
  }
}

@Module({
  providers: [{ provide: SIGNING_KEYS, useFactory: async () => (await sleep(20), { valid: 'good-token' }) }, TokenVerifier],
  exports: [TokenVerifier],
})
class VerifierModule {}

/** The docs/wire-checks.md shape: an auth class in the host's providers, injecting a verifier with its own dependencies. */
@Injectable()
class VerifyingAuth implements McpAuth {
  constructor(private readonly verifier: TokenVerifier) {}
  authenticate(req: IncomingMessage): McpAuthDecision {
    const subject = this.verifier.subjectOf(bearerToken(req));
    return subject ? McpAuthDecision.allow({ subject }) : McpAuthDecision.deny();
  }
}

/** A deterministic codec with a dependency that takes a while: what it declares is read once it is built. */
@Injectable()
class SlowDeterministicCodec extends HmacRequestStateCodec {
  seals = 0;
  constructor(readonly verifier: TokenVerifier) {
    super(['a-long-random-secret-0123456789-abcdefghijklmnop']);
  }
  override seal(payload: string): string {
    this.seals++;
    return super.seal(payload);
  }
}

/** An event bus class with a dependency that takes a while too. */
@Injectable()
class KeyedBus extends InProcessEventBus {
  constructor(readonly verifier: TokenVerifier) {
    super();
  }
}

/** An event bus class with lifecycle hooks (a connection opened at init, closed at destroy): how often Nest calls each. */
@Injectable()
class HookedBus extends InProcessEventBus implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown, OnApplicationShutdown {
  static readonly calls: string[] = [];
  onModuleInit(): void {
    HookedBus.calls.push('onModuleInit');
  }
  onApplicationBootstrap(): void {
    HookedBus.calls.push('onApplicationBootstrap');
  }
  onModuleDestroy(): void {
    HookedBus.calls.push('onModuleDestroy');
  }
  beforeApplicationShutdown(): void {
    HookedBus.calls.push('beforeApplicationShutdown');
  }
  onApplicationShutdown(): void {
    HookedBus.calls.push('onApplicationShutdown');
  }
}

describe('seams: what a user or a test can replace the Nest way', () => {
  let t: TestApp | undefined;
  beforeEach(() => {
    sideEffects.length = 0;
  });
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('seals requestState with a codec class given as requestState.codec, resolved from the host providers', async () => {
    t = await createTestApp({ providers: [ConfirmDeleteTool, PayloadVault, VaultCodec], options: { requestState: { codec: VaultCodec } } });
    const first = await callTool(t.server, 'confirm_delete', { file: 'a.txt' });
    expect(first.body.result).toMatchObject({ resultType: 'input_required', requestState: 'vault-1' });
    const forged = await callTool(t.server, 'confirm_delete', { file: 'a.txt' }, { inputResponses: CONFIRM, requestState: 'vault-9' });
    expect(forged.status).toBe(400);
    expect(forged.body.error.data).toEqual({ reason: 'invalid_request_state', problem: 'tampered' });
    const retry = await callTool(t.server, 'confirm_delete', { file: 'a.txt' }, { inputResponses: CONFIRM, requestState: 'vault-1' });
    expect(retry.body.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Deleted a.txt.' }] });
    expect(sideEffects).toEqual(['deleted a.txt']);
  });

  it("still binds a custom codec's state to its call (another file is another call)", async () => {
    t = await createTestApp({ providers: [ConfirmDeleteTool, PayloadVault, VaultCodec], options: { requestState: { codec: VaultCodec } } });
    await callTool(t.server, 'confirm_delete', { file: 'a.txt' });
    const other = await callTool(t.server, 'confirm_delete', { file: 'b.txt' }, { inputResponses: CONFIRM, requestState: 'vault-1' });
    expect(other.body.error.data).toEqual({ reason: 'invalid_request_state', problem: 'other_call' });
    expect(sideEffects).toEqual([]);
  });

  it('refuses secrets beside a custom codec at module init', async () => {
    await expect(
      createTestApp({ providers: [PayloadVault], options: { requestState: { codec: VaultCodec, secrets: ['a-long-random-secret-0123456789-abcdefghijklmnop'] } } }),
    ).rejects.toThrow(McpConfigurationError);
  });

  it("seals a list's first-page cursor afresh each time with a codec of its own (only the default codec's cursor is kept)", async () => {
    t = await createTestApp({ providers: [ConfirmDeleteTool, EchoTool, PayloadVault, VaultCodec], options: { pageSize: 1, requestState: { codec: VaultCodec } } });
    const vault = t.app.get(PayloadVault);
    const first = await post(t.server, rpc('tools/list'));
    const again = await post(t.server, rpc('tools/list'));
    expect([first.body.result.nextCursor, again.body.result.nextCursor]).toEqual(['vault-1', 'vault-2']);
    expect(vault.kept.size).toBe(2);
    for (const cursor of ['vault-1', 'vault-2']) {
      const next = await post(t.server, rpc('tools/list', { cursor }));
      expect(next.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual(['echo']);
    }
  });

  it('keeps the first page, its cursor included, with a codec of its own that declares itself deterministic', async () => {
    t = await createTestApp({
      providers: [ConfirmDeleteTool, EchoTool, PayloadVault, DeterministicVaultCodec],
      options: { pageSize: 1, requestState: { codec: DeterministicVaultCodec } },
    });
    const codec = t.app.get(DeterministicVaultCodec);
    const sealed: string[] = [];
    const seal = codec.seal.bind(codec);
    codec.seal = (payload) => (sealed.push(payload), seal(payload));
    const first = await post(t.server, rpc('tools/list'));
    const again = await post(t.server, rpc('tools/list'));
    expect(again.body.result).toEqual(first.body.result);
    expect(first.body.result.nextCursor).toBe('vault-1');
    expect(sealed).toHaveLength(1);
    const next = await post(t.server, rpc('tools/list', { cursor: 'vault-1' }));
    expect(next.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual(['echo']);
  });

  it("seals a list paged afresh on every request (a template's listed resources) to one first-page cursor with a deterministic codec, afresh with one that is not", async () => {
    const cursors = async () => [(await post(t!.server, rpc('resources/list'))).body.result.nextCursor, (await post(t!.server, rpc('resources/list'))).body.result.nextCursor];
    const providers = [ReadmeResource, ListingNoteTemplate, PayloadVault];
    t = await createTestApp({ providers: [...providers, VaultCodec], options: { pageSize: 1, requestState: { codec: VaultCodec } } });
    expect(await cursors()).toEqual(['vault-1', 'vault-2']);
    await t.close();
    t = await createTestApp({ providers: [...providers, DeterministicVaultCodec], options: { pageSize: 1, requestState: { codec: DeterministicVaultCodec } } });
    const codec = t.app.get(DeterministicVaultCodec);
    const sealed: string[] = [];
    const seal = codec.seal.bind(codec);
    codec.seal = (payload) => (sealed.push(payload), seal(payload));
    expect(await cursors()).toEqual(['vault-1', 'vault-1']);
    expect(sealed).toHaveLength(1);
    const next = await post(t.server, rpc('resources/list', { cursor: 'vault-1' }));
    expect(next.body.result.resources.map((resource: { uri: string }) => resource.uri)).toEqual(['notes://notes/a']);
    expect(next.body.result.nextCursor).toBe('vault-2');
  });

  it("seals the first-page cursor once with a deterministic codec when the template's resources start the list (its first page built afresh)", async () => {
    t = await createTestApp({
      providers: [ListingNoteTemplate, PayloadVault, DeterministicVaultCodec],
      options: { pageSize: 1, requestState: { codec: DeterministicVaultCodec } },
    });
    const codec = t.app.get(DeterministicVaultCodec);
    const sealed: string[] = [];
    const seal = codec.seal.bind(codec);
    codec.seal = (payload) => (sealed.push(payload), seal(payload));
    const firsts = [(await post(t.server, rpc('resources/list'))).body.result, (await post(t.server, rpc('resources/list'))).body.result];
    expect(firsts.map((result) => [result.resources[0].uri, result.nextCursor])).toEqual([
      ['notes://notes/a', 'vault-1'],
      ['notes://notes/a', 'vault-1'],
    ]);
    expect(sealed).toHaveLength(1);
  });

  it('keeps the first page, its cursor included, with the default codec', async () => {
    t = await createTestApp({ providers: [ConfirmDeleteTool, EchoTool], options: { pageSize: 1 } });
    const first = await post(t.server, rpc('tools/list'));
    const again = await post(t.server, rpc('tools/list'));
    expect(again.body.result).toEqual(first.body.result);
    const next = await post(t.server, rpc('tools/list', { cursor: first.body.result.nextCursor }));
    expect(next.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual(['echo']);
  });

  it('keeps tasks in a task store class given as tasks.store, resolved from the host providers, as JSON', async () => {
    t = await createTestApp({ providers: [MustTaskTool, JsonTaskStore], options: { tasks: { store: JsonTaskStore } } });
    const taskId = (await taskCall(t.server, 'must_task')).body.result.taskId as string;
    const done = await waitForStatus(t.server, taskId, ['completed']);
    const store = t.app.get(JsonTaskStore);
    expect(JSON.parse(store.kept.get(taskId)!)).toMatchObject({ taskId, status: 'completed', subject: null, tool: 'must_task', result: done.result });
    const edited = { ...JSON.parse(store.kept.get(taskId)!), statusMessage: 'read from the store' };
    store.kept.set(taskId, JSON.stringify(edited));
    expect((await tasksRequest(t.server, 'tasks/get', { taskId })).body.result.statusMessage).toBe('read from the store');
  });

  it('builds a seam class given as an option with its whole dependency tree, however long that takes to resolve', async () => {
    t = await createTestApp({ imports: [VerifierModule], providers: [EchoTool, VerifyingAuth, KeyedBus], options: { auth: VerifyingAuth, eventBus: KeyedBus } });
    const call = rpc('tools/call', { name: 'echo', arguments: { text: 'hi' } });
    expect((await post(t.server, call, { authorization: 'Bearer good-token' })).body.result.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect((await post(t.server, call, { authorization: 'Bearer bad-token' })).status).toBe(401);
    const bus = t.app.get<KeyedBus>(McpEventBus);
    expect(bus).toBeInstanceOf(KeyedBus);
    expect(bus.verifier.subjectOf('good-token')).toBe('alice');
    const heard: unknown[] = [];
    await t.app.get(KeyedBus).subscribe((event) => heard.push(event));
    await bus.publish({ kind: 'toolsListChanged' }); // the host's instance, through the token
    expect(heard).toEqual([{ kind: 'toolsListChanged' }]);
  });

  it("runs the lifecycle hooks of a seam class from the host's providers once each, as the host's own provider (not again through the mount's token)", async () => {
    HookedBus.calls.length = 0;
    const app = await createTestApp({ providers: [EchoTool, HookedBus], options: { eventBus: HookedBus } });
    expect(app.app.get(McpEventBus)).toBeInstanceOf(HookedBus);
    await app.close();
    expect(HookedBus.calls).toEqual(['onModuleInit', 'onApplicationBootstrap', 'onModuleDestroy', 'beforeApplicationShutdown', 'onApplicationShutdown']);
  });

  it("reads what a slow-built codec class declares (deterministic) from the built instance: the first page's cursor is sealed once", async () => {
    t = await createTestApp({
      imports: [VerifierModule],
      providers: [EchoTool, ConfirmDeleteTool, SlowDeterministicCodec],
      options: { pageSize: 1, requestState: { codec: SlowDeterministicCodec } },
    });
    const first = await post(t.server, rpc('tools/list'));
    expect((await post(t.server, rpc('tools/list'))).body.result).toEqual(first.body.result);
    expect(t.app.get(SlowDeterministicCodec).seals).toBe(1);
  });

  it('lets a test swap the codec with overrideProvider', async () => {
    const seen: string[] = [];
    const hmac = new HmacRequestStateCodec(['a-long-random-secret-0123456789-abcdefghijklmnop']);
    const spy: RequestStateCodec = { seal: (p) => (seen.push('seal'), hmac.seal(p)), open: (s) => (seen.push('open'), hmac.open(s)) };
    t = await createTestApp({ providers: [ConfirmDeleteTool], override: (b) => b.overrideProvider(RequestStateCodec).useValue(spy) });
    const first = await callTool(t.server, 'confirm_delete', { file: 'a.txt' });
    await callTool(t.server, 'confirm_delete', { file: 'a.txt' }, { inputResponses: CONFIRM, requestState: first.body.result.requestState });
    expect(seen).toEqual(['seal', 'open']);
    expect(sideEffects).toEqual(['deleted a.txt']);
  });

  it('lets a test swap the protocol schema with overrideProvider', async () => {
    const checked: string[] = [];
    const vendored = await ProtocolSchema.vendored();
    const recording = Object.create(vendored) as ProtocolSchema;
    recording.check = (definition, value) => (checked.push(definition), vendored.check(definition, value));
    t = await createTestApp({ providers: [ConfirmDeleteTool], override: (b) => b.overrideProvider(ProtocolSchema).useValue(recording) });
    const res = await post(t.server, rpc('tools/list'));
    expect(res.status).toBe(200);
    expect(checked).toEqual(['JSONRPCRequest', 'RequestMetaObject', 'ListToolsRequest']);
  });
});

describe('rejectionMarkOf: a host reads the mark of a refused request', () => {
  const marks: unknown[] = [];
  let t: TestApp;
  beforeEach(async () => {
    marks.length = 0;
    t = await createTestApp({
      configure: (app) =>
        app.use((req: IncomingMessage, res: ServerResponse, next: () => void) => {
          res.on('finish', () => marks.push([rejectionMarkOf(req), rejectionMarkOf({ raw: req })]));
          next();
        }),
    });
  });
  afterEach(() => t.close());

  it('gives the rejecter and reason of a refused request, and nothing for an accepted one', async () => {
    await post(t.server, '{not json', { 'content-type': 'application/json' });
    await post(t.server, rpc('tools/list'), { 'mcp-method': 'tools/call' });
    await post(t.server, rpc('server/discover'));
    const invalidJson = { rejecter: 'parse-step', reason: 'invalid_json' };
    const mismatch = { rejecter: 'header-binding-check', reason: 'header_mismatch' };
    expect(marks).toEqual([
      [invalidJson, invalidJson],
      [mismatch, mismatch],
      [undefined, undefined],
    ]);
  });
});
