import type { SessionIdContents } from '../contracts/request-record.js';
import { LEGACY_DEFAULT_VERSION, LEGACY_PROTOCOL_VERSIONS, META_KEYS, type McpLogLevel } from '../mcp.constants.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { ownCopy } from '../util/own-key.js';

/** The revision `initialize` answers: the client's when this server serves it, else the newest it serves. */
function negotiatedVersion(requested: unknown): string {
  return (LEGACY_PROTOCOL_VERSIONS as readonly unknown[]).includes(requested) ? (requested as string) : LEGACY_PROTOCOL_VERSIONS[0];
}

/**
 * The legacy envelope: the `_meta` a legacy request is served under, its protocol fields filled in, so the handlers
 * stay era-neutral. The version is the header's, else the echoed session id's, else 2025-03-26, or for
 * `initialize` the negotiated one; the client capabilities are `initialize`'s, on a later request the input
 * capabilities its echoed session id carries, else unknown (`{}`); the log level is the `legacyLogLevel` option's,
 * because a stateless server cannot remember `logging/setLevel`. The request's own `_meta` keys (`progressToken`)
 * are kept, but a `clientInfo`.
 */
export function legacyMeta(
  message: Record<string, unknown>,
  versionHeader: string | undefined,
  session: SessionIdContents | undefined,
  logLevel: McpLogLevel,
): Record<string, unknown> {
  const params = isPlainObject(message.params) ? message.params : {};
  const own = isPlainObject(params._meta) ? params._meta : {};
  const initialize = message.method === 'initialize';
  const meta = ownCopy(own);
  meta[META_KEYS.protocolVersion] = initialize ? negotiatedVersion(params.protocolVersion) : (versionHeader ?? session?.version ?? LEGACY_DEFAULT_VERSION);
  meta[META_KEYS.clientCapabilities] = initialize ? (isPlainObject(params.capabilities) ? params.capabilities : {}) : (session?.capabilities ?? {});
  // The 2025 revisions name the client in initialize's params only, and nothing is built from initialize's envelope
  // that reads it: a request's own _meta naming one is not believed.
  if (Object.hasOwn(meta, META_KEYS.clientInfo)) delete meta[META_KEYS.clientInfo];
  meta[META_KEYS.logLevel] = logLevel;
  return meta;
}
