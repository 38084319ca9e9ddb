import { McpAuthGuard } from './mcp-auth.guard.js';
import { OriginGuard } from './origin.guard.js';
import { SingletonHeaderGuard } from './singleton-header.guard.js';

/**
 * The wire checks, in order; the one statement of that order (`CHAIN_GUARDS` opens with it):
 * 1. `OriginGuard` first: it faces `Origin` and `Host` before anything reads a header;
 * 2. `SingletonHeaderGuard`: every later reader of the mirrored headers sees at most one value;
 * 3. `McpAuthGuard`: a refused caller learns nothing about its body's validity.
 * Each runs before the body is read, touches no state and refuses by throwing a marked rejection; the
 * fallthrough runs none of them.
 * Proven by: test/sweeps/wire-checks.sweep.e2e-spec.ts (every check × verb × path cell, by marks),
 * test/sweeps/post-chain.sweep.e2e-spec.ts (the order)
 * @publicApi
 */
export const WIRE_CHECKS = [OriginGuard, SingletonHeaderGuard, McpAuthGuard] as const;
