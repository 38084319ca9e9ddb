import type { AnswerStream } from '../response/answer-stream.js';
import { bounded } from '../util/bounded.js';
import { quiet, rejected } from '../util/quiet-promise.js';
import type { InputChannel } from './input-channel.js';
import { INPUT_KINDS, firstRevisionWith, inputRequestName, missingInputCapability, paramsAtRevision, type InputKind } from './input-kinds.js';
import { buildInputRequest, checkInputKey, type InputChecks } from './input-request.js';
import { readAnswer } from './input-responses.js';
import type { PendingInputRequests } from './pending-input-requests.js';

/** What a streamed exchange is wired to. */
export interface StreamedInputsInit extends InputChecks {
  /** The call's answer stream: the requests go out on it, and its close withdraws them. */
  readonly answer: AnswerStream;
  readonly pending: PendingInputRequests;
  /** The caller's auth subject: only that caller's answer is taken. */
  readonly subject: string | undefined;
  /** What the call's request holds in memory while it waits (counted against `maxPendingBytes`), asked when it first does. */
  readonly heldBytes: () => number;
  /** The request's legacy revision (its `MCP-Protocol-Version`, else its session id's): an input request it does not have is not sent. */
  readonly revision: string;
  /** The input capabilities the client declared in `initialize`, when its echoed session id carries them; else unknown. */
  readonly capabilities: Readonly<Record<string, unknown>> | undefined;
}

/** JSON-RPC's "method not found": what a client without the capability answers an input request with. */
const METHOD_NOT_FOUND = -32601;

/**
 * The legacy era's input channel: each input request goes to the client as a server-to-client JSON-RPC request
 * on the call's SSE stream, and the tool waits (in this process) for the answer the client POSTs back. The tool
 * runs once. An answer is read as the kind asked for before the tool sees it (a bad one rejects with -32602); a
 * client that answers "method not found" lacks the capability (-32021, as on the modern era); a client whose
 * `Accept` excludes SSE cannot be asked (-32600, sent with 200 as every legacy method error); a request the closed
 * stream cannot carry, one that times out, and one whose call ended reject as faults. The client's capabilities
 * are checked first when its echoed session id carries them (-32021 for one it did not declare); without one they
 * are unknown, and the request is sent to find out.
 */
export class StreamedInputs implements InputChannel {
  private readonly withdrawals = new Set<() => void>();
  private readonly used = new Set<string>();
  private state: unknown;
  private closed = false;
  private watching = false;
  private held: number | undefined;

  // The stream's close is watched from the first input request on: most calls ask nothing, and the answer stream's
  // signal costs an AbortController. Before that, `ended` reads whether the stream can still carry the call.
  constructor(private readonly init: StreamedInputsInit) {}

  /** Whether the call is over: closed here, or its stream ended (answered, cancelled or gone). */
  private get ended(): boolean {
    return this.closed || !this.init.answer.open;
  }

  ask(kind: InputKind, params: unknown, key: string | undefined): Promise<unknown> {
    const spec = INPUT_KINDS[kind];
    if (this.ended) return rejected(new Error(`${spec.method} asked after the request it belongs to was answered; a context is valid only during its own call`));
    try {
      checkInputKey(key);
      if (key !== undefined && this.used.has(key)) throw new Error(`input-request key "${key}" is used twice in one execution; give each request its own key`);
      if (key !== undefined) this.used.add(key);
      const request = buildInputRequest(kind, params, this.init);
      const since = firstRevisionWith(kind, request.params);
      if (since !== undefined && this.init.revision < since)
        throw missingInputCapability(
          inputRequestName(kind, request.params),
          `, which protocol version ${this.init.revision} does not have (it came with ${since}); the client may connect with a later revision`,
          spec.need(request.params, {})!,
        );
      const missing = this.init.capabilities && spec.need(paramsAtRevision(kind, request.params, this.init.revision), this.init.capabilities);
      if (missing) throw missingInputCapability(inputRequestName(kind, request.params), ', which the client did not declare in initialize', missing);
      this.init.answer.requireStream(`This call sends the client ${spec.method}`);
      if (!this.watching) {
        this.watching = true;
        this.init.answer.signal.addEventListener('abort', () => this.close(), { once: true });
      }
      const { id, answer, withdraw } = this.init.pending.open(this.init.subject, (this.held ??= this.init.heldBytes()), this);
      this.withdrawals.add(withdraw);
      if (!this.init.answer.request({ id, ...request })) {
        this.withdrawals.delete(withdraw);
        withdraw();
        throw new Error(`${spec.method} cannot reach the client: the call's stream closed`);
      }
      const place = { key: id, label: `the client's answer to ${spec.method} (request "${id}")`, path: ['result'] };
      return quiet(
        answer.then((reply) => {
          this.withdrawals.delete(withdraw);
          if ('error' in reply) throw refusedByClient(kind, request.params, reply.error);
          return readAnswer(kind, place, reply.result, request.params, this.init);
        }),
      );
    } catch (thrown) {
      return rejected(thrown);
    }
  }

  get toolState(): unknown {
    return this.state;
  }

  set toolState(value: unknown) {
    if (this.ended) throw new Error('the tool state was set after the request it belongs to was answered');
    this.state = value;
  }

  /** Ends the exchange: every request still waiting is withdrawn. */
  close(): void {
    this.closed = true;
    for (const withdraw of this.withdrawals) withdraw();
    this.withdrawals.clear();
  }
}

/**
 * What a client's JSON-RPC error for an input request becomes: -32021 for "method not found" (it lacks the
 * capability, so it needs all the request asked), else a fault.
 */
function refusedByClient(kind: InputKind, params: Readonly<Record<string, unknown>>, error: { code: number; message: string }): Error {
  const spec = INPUT_KINDS[kind];
  if (error.code === METHOD_NOT_FOUND)
    return missingInputCapability(inputRequestName(kind, params), `, and the client answered ${spec.method} with "method not found"`, spec.need(params, {})!);
  return new Error(`the client answered ${spec.method} with error ${bounded(error.code, 20)}: ${bounded(error.message, 200)}`);
}
