import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

import { headerLines, type SessionIdContents } from '../contracts/request-record.js';
import { LEGACY_PROTOCOL_VERSIONS, SESSION_ID_HEADER } from '../mcp.constants.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { setOwnKey } from '../util/own-key.js';

/** The longest session id read; a longer one is ignored (ours stay under it, however much a client declared). */
const MAX_SESSION_ID_CHARS = 2048;

/** The client capabilities an input request may need; the rest of a declaration is left out of a session id. */
const INPUT_CAPABILITY_NAMES = ['elicitation', 'sampling', 'roots'] as const;

/** How many sub-capabilities of each are kept, and how long a kept name may be. */
const MAX_SUB_CAPABILITIES = 8;
const MAX_SUB_CAPABILITY_CHARS = 32;

/**
 * The input capabilities of a declaration: each of {@link INPUT_CAPABILITY_NAMES} that is an object, with the
 * sub-capabilities that are objects, each as `{}` (bounded in number and name length): which are there is what
 * decides the input requests that may be sent. A value of another kind (`listChanged: true`) decides none, and a
 * valid `initialize` declares no other kind where one would.
 */
function inputCapabilities(declared: unknown): Record<string, Record<string, unknown>> {
  const kept: Record<string, Record<string, unknown>> = {};
  if (!isPlainObject(declared)) return kept;
  for (const name of INPUT_CAPABILITY_NAMES) {
    const capability = declared[name];
    if (!isPlainObject(capability)) continue;
    const subs: Record<string, unknown> = {};
    let count = 0;
    for (const [sub, value] of Object.entries(capability))
      if (isPlainObject(value) && sub.length <= MAX_SUB_CAPABILITY_CHARS && count++ < MAX_SUB_CAPABILITIES) setOwnKey(subs, sub, {});
    kept[name] = subs;
  }
  return kept;
}

/**
 * The `Mcp-Session-Id` a legacy `initialize` issues: a random UUID, then the negotiated revision and the client's
 * input capabilities as base64url JSON. The server keeps nothing: a later request that echoes it is served under that
 * revision (when it sends no `MCP-Protocol-Version`) and asks only for input the client declared. It grants nothing,
 * so it is not sealed: a client can only claim what it could have declared.
 */
export function issueSessionId(version: string, declared: unknown): string {
  const payload = JSON.stringify({ v: version, c: inputCapabilities(declared) });
  return `${randomUUID()}.${Buffer.from(payload, 'utf8').toString('base64url')}`;
}

/** What an echoed session id carries, or undefined for none, one not of this form, or one naming a revision not served. */
export function readSessionId(header: string | undefined): SessionIdContents | undefined {
  if (header === undefined || header.length > MAX_SESSION_ID_CHARS) return undefined;
  const match = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]+)$/.exec(header);
  if (!match) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(match[2]!, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isPlainObject(payload) || !(LEGACY_PROTOCOL_VERSIONS as readonly unknown[]).includes(payload.v)) return undefined;
  return { id: match[1]!, version: payload.v as string, capabilities: inputCapabilities(payload.c) };
}

/** What a request's `Mcp-Session-Id` carries; one sent twice is read as none (a proxy routing on it may have read the other). */
export function echoedSessionId(req: IncomingMessage): SessionIdContents | undefined {
  const lines = headerLines(req);
  return lines.repeated(SESSION_ID_HEADER) ? undefined : readSessionId(lines.value(SESSION_ID_HEADER));
}
