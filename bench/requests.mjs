// The workloads: the requests a client sends (bodies and headers of a 2026-07-28 client, and of a 2025-11-25 one
// for the legacy workload), what a correct answer is, and the request list autocannon cycles through.
// The texts the tools answer come from the compiled common data (bench/common/bench-data.ts), so build first.
import { readFileSync } from 'node:fs';

import { ECHO_TEXT, PROGRESS_DONE_TEXT, PROGRESS_STEPS, VALID_TEXT } from '../dist-bench/bench/common/bench-data.js';

/** The modern protocol revision, and the legacy one of the legacy workload. */
export const MODERN_VERSION = '2026-07-28';
export const LEGACY_VERSION = '2025-11-25';

/** autocannon replaces this placeholder with a fresh id in every request it sends (its `idReplacement`). */
export const ID_PLACEHOLDER = '[<id>]';

/** Arguments the `validate` schema accepts (bench/data/validate-valid-arguments.json). */
const VALID_ARGUMENTS = JSON.parse(readFileSync(new URL('./data/validate-valid-arguments.json', import.meta.url), 'utf8'));

/** How many tools the servers of the `tools/list` workload register (run.mjs passes it on as BENCH_TOOLS). */
const LIST_TOOLS = Number(process.env.BENCH_LIST_TOOLS || 100);

/** The client a request says it comes from (`_meta` clientInfo). */
const CLIENT_INFO = { name: 'nest-mcp-bench', version: '0.1.0' };

/** The per-request `_meta` protocol fields of a 2026-07-28 client, with optional extra entries. */
function modernMeta(capabilities = {}, extra = {}) {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
    'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    ...extra,
  };
}

/** The headers of a 2026-07-28 client: the body's method and tool name mirrored into `Mcp-Method` / `Mcp-Name`. */
function modernHeaders(method, name) {
  return {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': MODERN_VERSION,
    'Mcp-Method': method,
    ...(name === undefined ? {} : { 'Mcp-Name': name }),
  };
}

/** The headers of a 2025-11-25 client after `initialize` (stateless server: no session id). */
function legacyHeaders() {
  return { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': LEGACY_VERSION };
}

/** A JSON-RPC request body, its id the placeholder. */
function body(method, params) {
  return JSON.stringify({ jsonrpc: '2.0', id: ID_PLACEHOLDER, method, params });
}

/** A modern `tools/call` request of tool `name` with `args` (extra `_meta` entries and capabilities optional). */
function modernCall(name, args, { capabilities, meta, more } = {}) {
  return {
    method: 'POST',
    path: '/mcp',
    headers: modernHeaders('tools/call', name),
    body: body('tools/call', { name, arguments: args, ...more, _meta: modernMeta(capabilities, meta) }),
  };
}

/** The text content of a complete, non-error `tools/call` result, or a reason it is not one. */
function textOf(result) {
  if (typeof result !== 'object' || result === null) return { problem: 'no result' };
  if (result.isError) return { problem: `isError result: ${JSON.stringify(result.content)}` };
  if (result.resultType !== undefined && result.resultType !== 'complete') return { problem: `resultType ${result.resultType}` };
  const text = result.content?.[0]?.text;
  return typeof text === 'string' ? { text } : { problem: 'no text content' };
}

/** A check of a `tools/call` answer whose text must be `expected`. */
function expectText(expected) {
  return (final) => {
    const { text, problem } = textOf(final.result);
    if (problem) return problem;
    return text === expected ? undefined : `text ${JSON.stringify(text)}, expected ${JSON.stringify(expected)}`;
  };
}

/**
 * Every workload: `requests` (one request, or the rounds of one operation), `check(final, messages, answers)` of a
 * first answer (undefined when correct), and `verify(body)`, the cheap check autocannon applies to every answer.
 */
export const WORKLOADS = {
  echo: {
    label: 'tools/call echo',
    requests: [modernCall('echo', { text: ECHO_TEXT })],
    check: expectText(ECHO_TEXT),
    verify: (text) => text.includes(ECHO_TEXT) && !text.includes('"isError":true'),
  },
  validate: {
    label: 'tools/call validate',
    requests: [modernCall('validate', VALID_ARGUMENTS)],
    check: expectText(VALID_TEXT),
    verify: (text) => text.includes(`"${VALID_TEXT}"`) && !text.includes('"isError":true'),
  },
  'action-echo': {
    label: 'tools/call bench {action: echo}',
    requests: [modernCall('bench', { action: 'echo', data: { text: ECHO_TEXT } })],
    check: expectText(ECHO_TEXT),
    verify: (text) => text.includes(ECHO_TEXT) && !text.includes('"isError":true'),
  },
  'action-validate': {
    label: 'tools/call bench {action: validate}',
    requests: [modernCall('bench', { action: 'validate', data: VALID_ARGUMENTS })],
    check: expectText(VALID_TEXT),
    verify: (text) => text.includes(`"${VALID_TEXT}"`) && !text.includes('"isError":true'),
  },
  'tools-list': {
    label: `tools/list (${LIST_TOOLS} tools)`,
    requests: [{ method: 'POST', path: '/mcp', headers: modernHeaders('tools/list'), body: body('tools/list', { _meta: modernMeta() }) }],
    check: (final) => {
      const count = final.result?.tools?.length;
      const expected = Math.min(LIST_TOOLS, 100); // 100: the first page of a paged list
      return count >= expected ? undefined : `${count} tools listed, expected at least ${expected}`;
    },
    verify: (text) => text.includes('"tool_0'),
  },
  legacy: {
    label: 'tools/call echo, 2025-11-25 client',
    requests: [{ method: 'POST', path: '/mcp', headers: legacyHeaders(), body: body('tools/call', { name: 'echo', arguments: { text: ECHO_TEXT } }) }],
    check: expectText(ECHO_TEXT),
    verify: (text) => text.includes(ECHO_TEXT) && !text.includes('"isError":true'),
  },
  progress: {
    label: `tools/call progress (${PROGRESS_STEPS} notifications, SSE)`,
    requests: [modernCall('progress', {}, { meta: { progressToken: ID_PLACEHOLDER } })],
    check: (final, messages) => {
      const notes = messages.filter((message) => message.method === 'notifications/progress').length;
      if (notes !== PROGRESS_STEPS) return `${notes} progress notifications, expected ${PROGRESS_STEPS}`;
      return expectText(PROGRESS_DONE_TEXT)(final);
    },
    verify: (text) => text.includes('notifications/progress') && text.includes(PROGRESS_DONE_TEXT),
  },
  'validate-invalid': {
    label: 'tools/call validate, manager.email not an email (checked, not measured)',
    refusal: true, // the answer that passes is a refusal: an isError result or a JSON-RPC error
    requests: [modernCall('validate', { ...VALID_ARGUMENTS, manager: { ...VALID_ARGUMENTS.manager, email: 'not-an-email' } })],
    check: (final) => (final.error || final.result?.isError === true ? undefined : 'accepted arguments its schema refuses'),
    verify: () => true,
  },
  mrtr: {
    label: 'MRTR round trip (2 requests: input_required, then complete)',
    requests: [
      {
        ...modernCall('confirm', { text: ECHO_TEXT }, { capabilities: { elicitation: {} } }),
        // Keeps the sealed requestState of the first answer for the retry (autocannon's per-connection context).
        onResponse: (status, text, context) => {
          try {
            context.requestState = JSON.parse(text).result?.requestState;
          } catch {
            context.requestState = undefined;
          }
        },
      },
      {
        ...modernCall('confirm', { text: ECHO_TEXT }, { capabilities: { elicitation: {} } }),
        setupRequest: (request, context) => ({ ...request, body: mrtrRetryBody(context.requestState) }),
      },
    ],
    check: (final, _messages, answers) => {
      const first = answers[0]?.result;
      if (first?.resultType !== 'input_required' || typeof first.requestState !== 'string') return `first answer not input_required: ${JSON.stringify(answers[0])}`;
      return expectText(`confirmed ${ECHO_TEXT}`)(final);
    },
    verify: (text) => text.includes('"requestState"') || text.includes(`confirmed ${ECHO_TEXT}`),
  },
};

/** The retry of the `confirm` call: the user's answer in `inputResponses`, the sealed `requestState` echoed. */
export function mrtrRetryBody(requestState) {
  return modernCall(
    'confirm',
    { text: ECHO_TEXT },
    { capabilities: { elicitation: {} }, more: { inputResponses: { confirm: { action: 'accept', content: { confirm: true } } }, requestState } },
  ).body;
}
