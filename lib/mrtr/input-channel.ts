import type { InputKind } from './input-kinds.js';

/**
 * An input channel: how a tool's context reaches the client for input during one call. On the modern era it is
 * the call's MRTR round (`MrtrRound`: an unanswered request ends the call input-required, and the tool runs again
 * with the answers); on the legacy era a streamed exchange (`StreamedInputs`: the request goes to the client on
 * the call's SSE stream and the tool waits for the answer).
 */
export interface InputChannel {
  /** Asks the client for one input; resolves with the answer (already read as the kind asked for), or rejects. */
  ask(kind: InputKind, params: unknown, key: string | undefined): Promise<unknown>;
  /** The tool state (`ctx.state`). */
  toolState: unknown;
  /** Ends the channel: later asks and state changes are faults of whoever makes them. */
  close(): void;
}
