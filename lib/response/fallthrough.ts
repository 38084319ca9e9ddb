import { JSON_RPC_CODES } from '../errors/json-rpc-codes.js';
import { SERVED_VERBS } from '../mcp.constants.js';
import { errorEnvelope } from '../protocol/json-rpc.js';
import { publish } from '../telemetry/channels.js';
import { bounded } from '../util/bounded.js';
import { sendJson, sendText } from './send.js';
import { takeOver } from './unanswered.js';
import { sendUnattached, type UnattachedBounds } from './unattached-answer.js';

const ALLOW = SERVED_VERBS.join(', ');

/** A 405 in the JSON-RPC dialect: clients tell the protocol eras apart by the body of a 400, 404 or 405. */
const NOT_ALLOWED = errorEnvelope(undefined, {
  code: JSON_RPC_CODES.invalidRequest,
  message: `Method not allowed: this MCP endpoint serves ${ALLOW} only (no stream to GET; the server keeps no session to DELETE).`,
});

/**
 * The fallthrough: the answer to a request no served route of the mount matches, with no check run. Another verb at
 * the mount gets 405 + `Allow` with a JSON-RPC error envelope; a path below it, a plain 404. One `mcp:wire:fallthrough`,
 * naming the `mount`. Sent within the mount's `bounds`, as a refusal is (`sendUnattached`).
 */
export function fallthrough(hostReq: unknown, hostRes: unknown, status: 404 | 405, mount: string, bounds: UnattachedBounds): void {
  const { req, res } = takeOver(hostReq, hostRes);
  // Express strips a middleware's mount prefix from `url`; `originalUrl` keeps the path as requested.
  const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '';
  publish('mcp:wire:fallthrough', () => ({ mount, verb: bounded(req.method ?? ''), path: bounded(url.split('?')[0]!, 200), status }));
  sendUnattached(req, res, bounds, () => (status === 405 ? sendJson(res, 405, NOT_ALLOWED, { allow: ALLOW }) : sendText(res, 404, 'Not Found')));
}
