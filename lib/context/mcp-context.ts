import type { IncomingHttpHeaders } from 'node:http';
import { META_KEYS } from '../mcp.constants.js';
import type { McpRequestState } from '../protocol/request-state.js';
import type { McpAuthInfo } from '../wire/mcp-auth.interface.js';

/**
 * The context handed to every tool run: this request's protocol fields, what the auth provider returned, the
 * request headers, which tool (and action) runs, and an `AbortSignal` that fires when the client goes away.
 * Built per call from what the POST chain proved; never shared between requests.
 * @publicApi
 */
export class McpContext {
  /** The request's protocol version (`_meta`). */
  readonly protocolVersion: string;
  /** The client capabilities declared on this request (never inferred from earlier ones). */
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  /** The client's self-reported identity, for display and logs only. */
  readonly clientInfo: Readonly<Record<string, unknown>> | undefined;
  /** What the auth provider returned for this request (undefined with no provider). */
  readonly auth: McpAuthInfo | undefined;

  constructor(
    state: McpRequestState,
    /** The request headers as Node parsed them. */
    readonly headers: IncomingHttpHeaders,
    /** The tool being run. */
    readonly tool: string,
    /** The action being run (action tools only). */
    readonly action: string | undefined,
    /** Fires when the client closes the stream or disconnects before the answer is complete. */
    readonly signal: AbortSignal,
  ) {
    const meta = state.meta ?? {};
    this.protocolVersion = meta[META_KEYS.protocolVersion] as string;
    this.clientCapabilities = (meta[META_KEYS.clientCapabilities] as Record<string, unknown>) ?? {};
    this.clientInfo = meta[META_KEYS.clientInfo] as Record<string, unknown> | undefined;
    this.auth = state.auth;
  }
}
