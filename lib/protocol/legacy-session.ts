import { randomUUID } from 'node:crypto';

import type { LegacySession } from '../contracts/request-record.js';
import { LEGACY_PROTOCOL_VERSIONS } from '../mcp.constants.js';
import { isPlainObject } from '../util/is-plain-object.js';

/** The header a 2025-era client echoes on every request after `initialize` (lower-cased, as Node reads it). */
export const SESSION_ID_HEADER = 'mcp-session-id';

/** The longest session id read; a longer one is ignored (ours are about 150 characters). */
const MAX_SESSION_ID_CHARS = 1024;

/** The sub-capabilities an input request's need reads, by input capability; any other key is left out. */
const INPUT_CAPABILITIES = { elicitation: ['form', 'url'], sampling: ['tools', 'context'], roots: [] } as const;

/**
 * The input capabilities of a declaration (elicitation, sampling, roots, with the sub-capabilities that decide what
 * may be asked), each sub-capability as `{}`: what a session id carries, bounded whatever the client declared.
 */
function inputCapabilities(declared: unknown): Record<string, Record<string, object>> {
  const kept: Record<string, Record<string, object>> = {};
  if (!isPlainObject(declared)) return kept;
  for (const [capability, subs] of Object.entries(INPUT_CAPABILITIES)) {
    const value = declared[capability];
    if (!isPlainObject(value)) continue;
    kept[capability] = {};
    for (const sub of subs) if (isPlainObject(value[sub])) kept[capability][sub] = {};
  }
  return kept;
}

/**
 * The `Mcp-Session-Id` `initialize` issues: a random UUID, then the negotiated revision and the client's input
 * capabilities as base64url JSON. The server keeps nothing: a later request that echoes it is served under that
 * revision (when it sends no `MCP-Protocol-Version`) and asks only for input the client declared. It grants nothing,
 * so it is not sealed: a client can only claim what it could have declared.
 */
export function legacySessionId(version: string, declared: unknown): string {
  const payload = JSON.stringify({ v: version, c: inputCapabilities(declared) });
  return `${randomUUID()}.${Buffer.from(payload, 'utf8').toString('base64url')}`;
}

/** What an echoed session id says, or undefined for none, one not of ours, or one naming a revision not served. */
export function readLegacySession(header: string | undefined): LegacySession | undefined {
  if (header === undefined || header.length > MAX_SESSION_ID_CHARS) return undefined;
  const dot = header.indexOf('.');
  if (dot === -1) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(header.slice(dot + 1), 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isPlainObject(payload) || !(LEGACY_PROTOCOL_VERSIONS as readonly unknown[]).includes(payload.v)) return undefined;
  return { version: payload.v as string, capabilities: inputCapabilities(payload.c) };
}
