import { OriginGuard } from './origin.guard.js';
import { SingletonHeaderGuard } from './singleton-header.guard.js';
import { McpAuthGuard } from './mcp-auth.guard.js';

/**
 * The wire checks, in the order the wire-check invariant states. This list is the one statement of that order
 * (`CHAIN_GUARDS` opens with it):
 *
 * 1. the origin check (`OriginGuard`) first: it faces `Origin` and `Host` before anything reads a header;
 * 2. the singleton-header check (`SingletonHeaderGuard`): every later reader of the mirrored headers sees at
 *    most one value;
 * 3. the auth check (`McpAuthGuard`): a refused caller learns nothing about its body's validity.
 *
 * The invariant: a wire check may reject a POST to the mount before any body-bound stage, touches no state, and
 * throws a rejection carrying its mark (never returns false); the fallthrough (every verb but POST, every path
 * below the mount) runs none of them. Each depends only on the module options (and `McpAuth`), so a host can
 * bind them on its own routes with `@UseGuards(...)` beside `@UseFilters(McpExceptionFilter)`.
 * Proven by: test/sweeps/wire-checks.sweep.e2e-spec.ts (every check × verb × path cell, by marks),
 * test/sweeps/post-chain.sweep.e2e-spec.ts (the order)
 * @publicApi
 */
export const WIRE_CHECKS = [OriginGuard, SingletonHeaderGuard, McpAuthGuard] as const;
