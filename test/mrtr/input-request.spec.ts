import { describe, expect, it } from '@jest/globals';

import { ElicitationSchemaCache } from '../../lib/mrtr/elicitation-schema-cache.js';
import { buildInputRequest } from '../../lib/mrtr/input-request.js';
import { ProtocolSchema } from '../../lib/protocol/protocol-schema.js';

const checks = { protocol: await ProtocolSchema.vendored(), schemas: new ElicitationSchemaCache() };
const PREFIX = 'the elicitation/create request is not a valid ElicitRequest: ';

/** The tool fault a form elicitation with these params is refused with. */
const refusal = (params: unknown) => {
  try {
    buildInputRequest('elicitation', params, checks);
  } catch (thrown) {
    return (thrown as Error).message;
  }
  throw new Error('the request was built');
};

const form = (properties: Record<string, unknown>, more: Record<string, unknown> = {}) => ({ message: 'Details?', requestedSchema: { type: 'object', properties }, ...more });

describe('buildInputRequest: a form the protocol schema refuses', () => {
  it('names each field none of the field shapes, with why', () => {
    expect(refusal(form({ ok: { type: 'boolean' }, id: { type: 'string', format: 'uuid' }, where: { type: 'object', properties: {} } }))).toBe(
      `${PREFIX}requestedSchema: field "id" has format "uuid", none of date, date-time, email, uri; field "where" is a nested object (forms take flat fields)`,
    );
  });

  it('counts the fields before naming the first three, when there are more', () => {
    const bad = { type: 'object', properties: {} };
    expect(refusal(form({ a: bad, b: bad, c: bad, d: bad }))).toBe(
      `${PREFIX}requestedSchema (4 fields, the first 3 here): field "a" is a nested object (forms take flat fields); field "b" is a nested object (forms take flat fields); field "c" is a nested object (forms take flat fields)`,
    );
  });

  it('names what the request without those fields still fails, so one fix is not refused again', () => {
    const { message: _none, ...withoutMessage } = form({ id: { type: 'string', format: 'uuid' } });
    expect(refusal(withoutMessage)).toBe(
      `${PREFIX}requestedSchema: field "id" has format "uuid", none of date, date-time, email, uri; and without them, /params missing required property "message"`,
    );
  });

  it('names the problems where every field passes alone (the form around them is wrong)', () => {
    expect(refusal({ requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } })).toBe(`${PREFIX}/params missing required property "message"`);
  });

  it('words a URL-mode request by the protocol schema alone: a requestedSchema it carries is no form to name fields of', () => {
    const url = { mode: 'url', message: 'Sign in', requestedSchema: { type: 'object', properties: { id: { type: 'string', format: 'uuid' } } } };
    expect(refusal(url)).toBe(`${PREFIX}/params missing required property "url"`);
  });
});
