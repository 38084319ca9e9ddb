import { OriginGuard } from './origin.guard.js';
import { SingletonHeaderGuard } from './singleton-header.guard.js';
import { McpAuthGuard } from './mcp-auth.guard.js';

/**
 * The wire checks, in the order the wire-check invariant states: the origin check first (it faces `Origin` and
 * `Host` before anything reads a header), then the singleton-header check (so every later reader sees at most
 * one value of the mirrored headers), then the auth check (so a refused caller learns nothing about the body's
 * validity). All three run before any body-bound stage and touch no state; each throws a rejection, never
 * returns false. Proven by: test/sweeps/wire-checks.sweep.e2e-spec.ts
 * @publicApi
 */
export const WIRE_CHECKS = [OriginGuard, SingletonHeaderGuard, McpAuthGuard] as const;
