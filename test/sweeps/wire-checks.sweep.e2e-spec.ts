import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { SERVED_VERBS, WIRE_CHECKS, type RejectionReason } from '../../lib/index.js';
import { NODE_HEADER_LINES_READ } from '../../lib/util/header-lines.js';
import { mirroredHeaders, recordEvents, rpc } from '../support/mcp-client.js';
import { fillerLines, NODE_REFUSES_EXCESS_LINES, rawRequest, type HeaderLine } from '../support/raw-http.js';
import { createTestApp, TEST_ADAPTER, type TestApp } from '../support/test-app.js';
import { GOOD_TOKEN, TokenAuth } from '../wire/wire-fixtures.js';

/**
 * The wire-check sweep: one cell per (wire check scenario × HTTP verb × path). Each cell sends a request that
 * violates exactly that check and expects, told apart by marks rather than statuses, either that check's
 * rejection (the `mcp:wire:reject` event naming its rejecter and reason) where the verb is served at the mount,
 * or the fallthrough (the `mcp:wire:fallthrough` event) everywhere else. A check added to `WIRE_CHECKS` without
 * scenarios fails `tsc`; a verb added to `SERVED_VERBS` turns its cells into rejection cells.
 */

/** The test's own closed list of verbs: every verb it knows, served or not. */
const HTTP_VERBS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
type Verb = (typeof HTTP_VERBS)[number];

const MOUNT = '/mcp';
/** The mount itself, and a path below it (which no verb is served at). */
const PATHS = [MOUNT, `${MOUNT}/below`] as const;

type WireCheck = (typeof WIRE_CHECKS)[number];
type WireRejecter = WireCheck['rejecter'];

/** A request that violates exactly one wire check: header lines to add, or header names to drop. */
interface Scenario<R extends WireRejecter> {
  readonly label: string;
  readonly reason: RejectionReason<R>;
  readonly add?: readonly HeaderLine[];
  readonly drop?: readonly string[];
  /** Whether Node answers the request itself (431, no check run and no event), so it reaches neither outcome. */
  readonly nodeAnswers?: boolean;
}

const BODY = rpc('server/discover', {}, 'sweep');

/** Every scenario of every wire check; `satisfies` closes the list over `WIRE_CHECKS` at compile time. */
const SCENARIOS = {
  'origin-check': [
    { label: 'a foreign Origin', reason: 'forbidden_origin', add: [['Origin', 'http://evil.example.com']] },
    { label: 'a spoofed Host', reason: 'forbidden_host', drop: ['host'], add: [['Host', 'evil.example.com']] },
    {
      label: 'a repeated Origin',
      reason: 'duplicate_origin',
      add: [
        ['Origin', 'http://localhost'],
        ['Origin', 'http://localhost'],
      ],
    },
    {
      label: 'a repeated Host',
      reason: 'duplicate_host',
      drop: ['host'],
      add: [
        ['Host', 'localhost'],
        ['Host', 'localhost'],
      ],
    },
    { label: 'as many header lines as Node reads', reason: 'too_many_header_lines', add: fillerLines(NODE_HEADER_LINES_READ), nodeAnswers: NODE_REFUSES_EXCESS_LINES },
  ],
  'singleton-header-check': [
    { label: 'a repeated MCP-Protocol-Version', reason: 'duplicate_header', add: [['MCP-Protocol-Version', '2026-07-28']] },
    { label: 'a repeated Mcp-Method', reason: 'duplicate_header', add: [['Mcp-Method', 'server/discover']] },
    {
      label: 'a repeated Mcp-Name',
      reason: 'duplicate_header',
      add: [
        ['Mcp-Name', 'x'],
        ['mcp-name', 'x'],
      ],
    },
    {
      label: 'a repeated Mcp-Param-Region',
      reason: 'duplicate_header',
      add: [
        ['Mcp-Param-Region', 'eu'],
        ['MCP-PARAM-REGION', 'eu'],
      ],
    },
  ],
  'auth-check': [
    { label: 'no bearer token', reason: 'unauthorized', drop: ['authorization'] },
    { label: 'a repeated Authorization', reason: 'invalid_request', add: [['Authorization', `Bearer ${GOOD_TOKEN}`]] },
  ],
} as const satisfies { [R in WireRejecter]: readonly Scenario<R>[] };

/**
 * Check-exempt verbs: cells deliberately served without one named check, keyed `"<verb> <path> <check>: <scenario>"`,
 * each with its reason. There are none. An exempt cell must answer neither the rejection nor the fallthrough, so an
 * entry that stops being true fails; an entry naming no cell fails too.
 */
const CHECK_EXEMPT_VERBS: Readonly<Record<string, string>> = {};

interface Cell {
  readonly key: string;
  readonly verb: Verb;
  readonly path: string;
  readonly check: WireCheck;
  readonly scenario: Scenario<WireRejecter>;
}

const CELLS: Cell[] = WIRE_CHECKS.flatMap((check) =>
  (SCENARIOS[check.rejecter] as readonly Scenario<WireRejecter>[]).flatMap((scenario) =>
    HTTP_VERBS.flatMap((verb) => PATHS.map((path) => ({ key: `${verb} ${path} ${check.rejecter}: ${scenario.label}`, verb, path, check, scenario }))),
  ),
);

const isServed = (verb: Verb, path: string) => (SERVED_VERBS as readonly string[]).includes(verb) && path === MOUNT;

describe("wire-check sweep: every (check × verb × path) cell answers the check's rejection or the fallthrough", () => {
  let t: TestApp;
  let hostLine: HeaderLine;
  beforeAll(async () => {
    t = await createTestApp({ options: { auth: new TokenAuth() } });
    const { port } = t.server.address() as { port: number };
    hostLine = ['Host', `127.0.0.1:${port}`];
  });
  afterAll(() => t.close());

  /** A conforming request with a good token, then the scenario's violation. */
  async function send(cell: Pick<Cell, 'verb' | 'path'>, scenario?: Scenario<WireRejecter>) {
    const base: HeaderLine[] = [hostLine, ...Object.entries(mirroredHeaders(BODY)), ['Authorization', `Bearer ${GOOD_TOKEN}`]];
    const lines = [...base.filter(([name]) => !scenario?.drop?.includes(name.toLowerCase())), ...(scenario?.add ?? [])];
    let status: number | 'unparsable' | undefined;
    const events = await recordEvents(['mcp:wire:reject', 'mcp:wire:fallthrough'], async () => {
      const res = await rawRequest(t.server, { method: cell.verb, path: cell.path, headers: lines, body: JSON.stringify(BODY) }).catch((error: Error) => {
        if (!/^Parse Error/.test(error.message)) throw error;
        return { status: 'unparsable' as const };
      });
      status = res.status;
    });
    return { events, status };
  }

  it('serves the unviolated request at the mount, so each scenario violates only its own check', async () => {
    const { events } = await send({ verb: 'POST', path: MOUNT });
    expect(events).toEqual([]);
  });

  describe.each(CELLS.map((cell) => [cell.key, cell] as const))('%s', (key, cell) => {
    it(
      CHECK_EXEMPT_VERBS[key] !== undefined
        ? 'is check-exempt: answers neither the rejection nor the fallthrough'
        : cell.scenario.nodeAnswers
          ? 'is answered 431 by Node itself, before any check'
          : isServed(cell.verb, cell.path)
            ? `answers the ${cell.check.name} rejection (${cell.scenario.reason})`
            : 'reaches the fallthrough, which runs no check',
      async () => {
        const { events, status } = await send(cell, cell.scenario);
        const rejections = events.filter((e) => e.channel === 'mcp:wire:reject').map((e) => e.message);
        const fallthroughs = events.filter((e) => e.channel === 'mcp:wire:fallthrough').map((e) => e.message);
        if (cell.scenario.nodeAnswers) {
          // Fastify's own 431 carries its JSON error even to HEAD, which no HTTP client can parse.
          const answer = cell.verb === 'HEAD' && TEST_ADAPTER === 'fastify' ? 'unparsable' : 431;
          expect({ status, rejections, fallthroughs }).toEqual({ status: answer, rejections: [], fallthroughs: [] });
        } else if (CHECK_EXEMPT_VERBS[key] !== undefined) {
          expect({ rejections, fallthroughs }).toEqual({ rejections: [], fallthroughs: [] });
        } else if (isServed(cell.verb, cell.path)) {
          expect({ rejections, fallthroughs }).toEqual({
            rejections: [expect.objectContaining({ rejecter: cell.check.rejecter, reason: cell.scenario.reason })],
            fallthroughs: [],
          });
        } else {
          expect({ rejections, fallthroughs }).toEqual({
            rejections: [],
            fallthroughs: [{ mount: '/mcp', verb: cell.verb, path: cell.path, status: cell.path === MOUNT ? 405 : 404 }],
          });
        }
      },
    );
  });

  it('names only existing cells in CHECK_EXEMPT_VERBS', () => {
    const keys = new Set(CELLS.map((cell) => cell.key));
    expect(Object.keys(CHECK_EXEMPT_VERBS).filter((key) => !keys.has(key))).toEqual([]);
  });

  it('covers every wire check with at least one scenario and every verb the mount serves', () => {
    expect(WIRE_CHECKS.filter((check) => (SCENARIOS[check.rejecter] as readonly unknown[]).length === 0)).toEqual([]);
    expect(SERVED_VERBS.filter((verb) => !(HTTP_VERBS as readonly string[]).includes(verb))).toEqual([]);
  });
});
