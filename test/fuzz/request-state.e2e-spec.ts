// Property-based fuzzing of MRTR requestState (docs/mrtr.md) over real HTTP: random strings, forgeries and
// mutations of real states from the sample's delete_note. FUZZ_RUNS=n runs n cases per property (CI default
// below); a failure prints fast-check's seed and path: replay with FUZZ_SEED=… FUZZ_PATH=….
import type { Server } from 'node:http';

import { beforeAll, describe, expect } from '@jest/globals';
import fc from 'fast-check';

import { callTool, statePayload, toolCall } from '../support/mrtr-client.js';
import { conformingHeaders, hugeString, nastyKey, nastyString, smallJson, wrongValue } from './arbitraries.js';
import { sendCase, useFuzzedSample } from './fuzz-support.js';

const RUNS = 100;
const TITLE = 'ideas';
const DECLINE = { confirm_delete: { action: 'decline' } };
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Real states to forge from: round one of delete_note for the note under test, and for another note. */
interface RealStates {
  mine: string;
  other: string;
}
/** A way to make a requestState from real ones, named for the failure report. */
interface Forgery {
  what: string;
  make(real: RealStates): unknown;
  [fc.toStringMethod](): string;
}
const forgery = (what: string, make: (real: RealStates) => unknown): Forgery => ({ what, make, [fc.toStringMethod]: () => JSON.stringify(what) });

const b64url = (text: string) => Buffer.from(text).toString('base64url');
const parts = (state: string) => state.split('.') as [string, string, string];
/** Replaces the character at `i` (modulo the length) with another base64url character. */
const flip = (s: string, i: number, pick: number) => {
  const at = i % s.length;
  const c = B64URL[(B64URL.indexOf(s[at]!) + 1 + (pick % 63)) % 64]!;
  return s.slice(0, at) + c + s.slice(at + 1);
};

/** requestState values that are not the one the server sealed for this call. */
const forgeries: fc.Arbitrary<Forgery> = fc.oneof(
  fc.oneof(nastyString, fc.string({ maxLength: 80 }), hugeString, wrongValue).map((value) => forgery(`the value ${JSON.stringify(value)?.slice(0, 60)}`, () => value)),
  fc.tuple(fc.nat(), fc.nat()).map(([i, pick]) => forgery(`one character changed at ${i}`, ({ mine }) => flip(mine, i, pick))),
  fc
    .integer({ min: 1, max: 3 })
    .map((bits) => forgery(`the tag's unused low bits set to ${bits}`, ({ mine }) => mine.slice(0, -1) + B64URL[B64URL.indexOf(mine.at(-1)!) ^ bits])),
  fc.constantFrom('-TAMPERED', '=', '==', '.', '.x', ' ', '\n').map((suffix) => forgery(`with ${JSON.stringify(suffix)} appended`, ({ mine }) => mine + suffix)),
  fc.integer({ min: 1, max: 8 }).map((n) => forgery(`cut by ${n}`, ({ mine }) => mine.slice(0, -n))),
  fc.constantFrom('v2.', 'V1.', 'v1..', '', 'v0.').map((prefix) => forgery(`prefix ${prefix}`, ({ mine }) => prefix + mine.slice(3))),
  fc.constant(forgery("another call's state", ({ other }) => other)),
  fc.constant(forgery("another call's payload under this tag", ({ mine, other }) => [parts(mine)[0], parts(other)[1], parts(mine)[2]].join('.'))),
  fc.constant(
    forgery('the payload in standard base64', ({ mine }) => [parts(mine)[0], Buffer.from(parts(mine)[1], 'base64url').toString('base64'), parts(mine)[2]].join('.')),
  ),
  fc
    .record({
      exp: fc.option(fc.integer({ min: 0 }), { nil: undefined }),
      r: fc.option(fc.integer(), { nil: undefined }),
      a: fc.option(smallJson, { nil: undefined }),
      extra: fc.option(smallJson, { nil: undefined }),
    })
    .map((edit) =>
      forgery(`the payload edited ${JSON.stringify(edit).slice(0, 80)}`, ({ mine }) => {
        const [v, , tag] = parts(mine);
        const payload = { ...statePayload(mine), ...Object.fromEntries(Object.entries(edit).filter(([, value]) => value !== undefined)) };
        return [v, b64url(JSON.stringify(payload)), tag].join('.');
      }),
    ),
  fc.constant(
    forgery('the user\'s "yes" forged into the payload', ({ mine }) => {
      const [v, , tag] = parts(mine);
      return [v, b64url(JSON.stringify({ ...statePayload(mine), a: { confirm_delete: { action: 'accept', content: { confirm: true } } } })), tag].join('.');
    }),
  ),
  fc.stringMatching(/^[A-Za-z0-9_-]{43}$/).map((tag) => forgery(`a random tag ${tag}`, ({ mine }) => [...parts(mine).slice(0, 2), tag].join('.'))),
);

/** One round two of a call over a raw socket, judged by the common answer properties. */
async function roundTwo(server: Server, name: string, args: unknown, requestState: unknown, inputResponses: unknown = DECLINE) {
  const body = toolCall(name, args as Record<string, unknown>, { requestState, inputResponses });
  const { messages } = await sendCase(server, { headers: conformingHeaders(body), body: Buffer.from(JSON.stringify(body)) });
  return messages.at(-1)!;
}

describe('fuzz: requestState (random, forged, mutated real states) against the sample app', () => {
  const { server, itHolds } = useFuzzedSample();
  let real: RealStates;

  /** Round one of delete_note for a note: its input-required result's requestState. */
  const roundOne = async (title: string) => {
    const res = await callTool(server(), 'delete_note', { title });
    expect(res.body.result.resultType).toBe('input_required');
    return res.body.result.requestState as string;
  };

  beforeAll(async () => {
    real = { mine: await roundOne(TITLE), other: await roundOne('todo') };
    // The real state is accepted: a declined confirmation keeps the note.
    const kept = await roundTwo(server(), 'delete_note', { title: TITLE }, real.mine);
    expect(kept.result.content).toEqual([{ type: 'text', text: `Kept "${TITLE}".` }]);
  });

  itHolds('refuses every requestState but the sealed one with 400 + -32602 before the tool runs, quoting none of it', RUNS * 2, forgeries, async (forged) => {
    const state = forged.make(real);
    fc.pre(state !== real.mine);
    const final = await roundTwo(server(), 'delete_note', { title: TITLE }, state);
    const seen = JSON.stringify(final).slice(0, 400);
    const reason = typeof state === 'string' ? 'invalid_request_state' : undefined;
    expect({ seen, code: final.error?.code, reason: final.error?.data?.reason }).toEqual({ seen, code: -32602, reason });
  });

  const call = fc.oneof(
    { weight: 2, arbitrary: fc.constant({ name: 'delete_note', args: { title: TITLE } as unknown }) },
    {
      weight: 3,
      arbitrary: fc.record({
        name: fc.constantFrom('delete_note', 'delete_note', 'echo', 'weather', 'tasks', 'reindex_notes', 'help'),
        args: fc.oneof(
          fc.record({ title: fc.oneof(fc.constantFrom(TITLE, 'todo', 'Ideas', `${TITLE} `), nastyString) }),
          fc.dictionary(nastyKey, smallJson, { maxKeys: 3 }).map((extra) => ({ title: TITLE, ...extra })),
          wrongValue,
        ),
      }),
    },
  );
  // Every kind of answer but the user's "yes" (that would delete the note the other cases need).
  const answers = fc.oneof(
    fc.constantFrom(
      DECLINE,
      { confirm_delete: { action: 'cancel' } },
      { confirm_delete: { action: 'accept', content: { confirm: false } } },
      {},
      { other_key: { action: 'decline' } },
    ),
    fc.record({ confirm_delete: smallJson }),
    smallJson,
  );
  itHolds(
    'accepts a real state only for the call it was sealed for, and never deletes without a "yes"',
    RUNS,
    fc.tuple(call, answers),
    async ([{ name, args }, inputResponses]) => {
      const final = await roundTwo(server(), name, args, real.mine, inputResponses);
      const seen = JSON.stringify(final).slice(0, 400);
      const text: string | undefined = final.result?.content?.[0]?.text;
      expect({ seen, deleted: text?.startsWith('Deleted') ?? false }).toEqual({ seen, deleted: false });
      const sealedFor = name === 'delete_note' && JSON.stringify(args) === JSON.stringify({ title: TITLE });
      const ran = final.result !== undefined && !final.result.isError;
      if (!sealedFor) expect({ seen, ran }).toEqual({ seen, ran: false });
    },
  );
});
