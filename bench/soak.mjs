#!/usr/bin/env node
// Soak: the sample app under a mixed workload for a set time, printing throughput, answers by kind and the server's
// memory at intervals, then flagging RSS growth after warm-up and any unexpected answer. Not part of `npm test`.
//
//   npm run build:sample && node bench/soak.mjs                 # 10 minutes
//   SOAK_SECONDS=60 SOAK_WARMUP=20 SOAK_INTERVAL=10 node bench/soak.mjs   # a quick check
//
// The server runs in a child process (bench/soak-server.mjs: the sample's built main, plus process.memoryUsage() on
// stderr each second); its RSS is read from /proc/<pid>/status each second (a report gives the interval's mean and max), its heap from that line ("heap floor": the lowest heap
// used seen in an interval, close to the live heap after a collection). Environment (all optional):
//   SOAK_SECONDS      how long the workload runs                         (default 600)
//   SOAK_INTERVAL     seconds between two report lines                   (default 30)
//   SOAK_WARMUP       seconds of warm-up: the first interval starting at or after it is the RSS baseline (default 60)
//   SOAK_WORKERS      concurrent workers, each on its own keep-alive connection (default 4)
//   SOAK_SAMPLE_MAIN  the sample's built main.js                        (default dist-sample/sample/src/main.js)
// Exit code 1 when something is flagged (RSS growth above 10 % after warm-up, an unexpected answer, a dead server).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

import { messagesOf } from './answer-messages.mjs';
import { env } from './figures.mjs';
import { freePort } from './free-port.mjs';

const SAMPLE_MAIN = process.env.SOAK_SAMPLE_MAIN || fileURLToPath(new URL('../dist-sample/sample/src/main.js', import.meta.url));
const SERVER = fileURLToPath(new URL('./soak-server.mjs', import.meta.url));

const SECONDS = env('SOAK_SECONDS', 600);
const INTERVAL = env('SOAK_INTERVAL', 30);
const WARMUP = env('SOAK_WARMUP', 60);
const WORKERS = env('SOAK_WORKERS', 4);
const RSS_GROWTH_LIMIT = 0.1;
const REQUEST_TIMEOUT_MS = 30_000;
const MAX_BODY_BYTES = 4 * 1024 * 1024; // the sample runs with the default maxBodyBytes
const VERSION = '2026-07-28';
const LEGACY_VERSION = '2025-11-25';

// ---------------------------------------------------------------------------------------------------------------
// One HTTP exchange; never rejects.

/**
 * POSTs `body` and resolves with status, content type, session id and text of the answer, or with the transport
 * error; `onFirstData` is called when the first bytes of the answer arrive.
 */
function post(port, agent, body, headers, onFirstData) {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  return new Promise((resolve) => {
    let settled = false;
    const done = (result) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent, headers: { ...headers, 'content-length': bytes.length } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => {
        if (chunks.length === 0) onFirstData?.();
        chunks.push(chunk);
      });
      res.on('end', () =>
        done({ status: res.statusCode, type: res.headers['content-type'] ?? '', sessionId: res.headers['mcp-session-id'], text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', (error) => done({ error: `response ${error.code ?? error.message}` }));
    });
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (error) => done({ error: error.code ?? error.message }));
    req.end(bytes);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The workload: each operation sends one or more requests and judges each answer as ok, an expected refusal, or
// unexpected.

const meta = (extra = {}) => ({
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'soak', version: '1.0.0' },
  ...extra,
});

let nextId = 1;
/** A 2026-07-28 request and the headers a conforming client sends with it (test/support/mcp-client.ts). */
function modern(method, params = {}, { name, extraMeta, headers = {} } = {}) {
  const body = { jsonrpc: '2.0', id: nextId++, method, params: { _meta: meta(extraMeta), ...params } };
  const mirrored = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, 'mcp-method': method };
  if (name !== undefined) mirrored['mcp-name'] = name;
  return { body, headers: { ...mirrored, ...headers } };
}

/** The JSON-RPC messages of an SSE answer, none when it failed or an event is not JSON (either is unexpected). */
function sseEvents(answer) {
  try {
    return answer.error ? [] : messagesOf('text/event-stream', answer.text);
  } catch {
    return [];
  }
}

/** The JSON-RPC message of an answer, or undefined when it is not JSON. */
function message(answer) {
  try {
    return JSON.parse(answer.text);
  } catch {
    return undefined;
  }
}

const describe = (answer) => {
  if (answer.error) return `transport ${answer.error}`;
  const m = message(answer);
  return `${answer.status} ${m?.error ? m.error.code : m?.result ? (m.result.isError ? 'isError' : (m.result.resultType ?? 'result')) : answer.type || 'no JSON'}`;
};

/** Judges a successful answer: `check(result)` says whether the result is the one expected. */
const expectResult = (op, answer, check) => {
  const m = message(answer);
  if (!answer.error && answer.status === 200 && m?.result && check(m.result)) return { kind: 'ok' };
  return { kind: 'unexpected', label: `${op}: ${describe(answer)}`, detail: answer.error ?? answer.text.slice(0, 300) };
};

/** Judges a refusal: the expected status and JSON-RPC code (or, with `gate`, a tool-dialect isError of that gate). */
const expectRefusal = (op, answer, status, code, gate) => {
  const m = message(answer);
  if (!answer.error && answer.status === status) {
    if (code !== undefined && m?.error?.code === code) return { kind: 'refusal', label: `${status}/${code}` };
    if (gate !== undefined && m?.result?.isError) {
      let refusal;
      try {
        refusal = JSON.parse(m.result.content[0].text);
      } catch {
        refusal = {};
      }
      if (refusal.error === gate) return { kind: 'refusal', label: `${status}/isError ${gate}` };
    }
  }
  return { kind: 'unexpected', label: `${op}: ${describe(answer)}`, detail: answer.error ?? answer.text.slice(0, 300) };
};

const oversized = Buffer.alloc(MAX_BODY_BYTES + 1, 0x20); // whitespace: the ceiling refuses it before anything parses it

/** The operations, with their weights: what fraction of the workload each is. */
const OPERATIONS = [
  {
    name: 'tools/list',
    weight: 14,
    async run(port, agent) {
      const { body, headers } = modern('tools/list');
      return [expectResult(this.name, await post(port, agent, body, headers), (r) => Array.isArray(r.tools) && r.tools.length > 0)];
    },
  },
  {
    name: 'echo',
    weight: 14,
    async run(port, agent) {
      const text = randomBytes(12).toString('hex');
      const { body, headers } = modern('tools/call', { name: 'echo', arguments: { text } }, { name: 'echo' });
      return [expectResult(this.name, await post(port, agent, body, headers), (r) => !r.isError && r.content?.[0]?.text === text)];
    },
  },
  {
    name: 'weather',
    weight: 5,
    async run(port, agent) {
      const { body, headers } = modern('tools/call', { name: 'weather', arguments: { region: 'eu-west' } }, { name: 'weather', headers: { 'mcp-param-region': 'eu-west' } });
      return [expectResult(this.name, await post(port, agent, body, headers), (r) => !r.isError && r.content?.[0]?.text?.startsWith('eu-west:'))];
    },
  },
  {
    name: 'tasks list',
    weight: 5,
    async run(port, agent) {
      const { body, headers } = modern('tools/call', { name: 'tasks', arguments: { action: 'list', data: { status: 'open' } } }, { name: 'tasks' });
      return [expectResult(this.name, await post(port, agent, body, headers), (r) => !r.isError)];
    },
  },
  {
    name: 'help',
    weight: 3,
    async run(port, agent) {
      const { body, headers } = modern('tools/call', { name: 'help', arguments: { tool: 'tasks' } }, { name: 'help' });
      return [expectResult(this.name, await post(port, agent, body, headers), (r) => !r.isError)];
    },
  },
  {
    name: 'resources/read',
    weight: 4,
    async run(port, agent) {
      const { body, headers } = modern('resources/read', { uri: 'notes://index' }, { name: 'notes://index' });
      return [expectResult(this.name, await post(port, agent, body, headers), (r) => Array.isArray(r.contents))];
    },
  },
  {
    name: 'server/discover',
    weight: 3,
    async run(port, agent) {
      const { body, headers } = modern('server/discover');
      return [expectResult(this.name, await post(port, agent, body, headers), (r) => Array.isArray(r.supportedVersions) && r.supportedVersions.includes(VERSION))];
    },
  },
  {
    name: 'legacy initialize + tools/list',
    weight: 3,
    async run(port, agent) {
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const init = {
        jsonrpc: '2.0',
        id: nextId++,
        method: 'initialize',
        params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: 'soak-legacy', version: '1.0.0' } },
      };
      const first = expectResult(`${this.name} (initialize)`, await post(port, agent, init, headers), (r) => r.protocolVersion === LEGACY_VERSION);
      const list = { jsonrpc: '2.0', id: nextId++, method: 'tools/list', params: {} };
      const second = expectResult(`${this.name} (tools/list)`, await post(port, agent, list, { ...headers, 'mcp-protocol-version': LEGACY_VERSION }), (r) =>
        Array.isArray(r.tools),
      );
      return [first, second];
    },
  },
  {
    name: 'legacy call cancelled by notifications/cancelled',
    weight: 3,
    async run(port, agent) {
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': LEGACY_VERSION };
      const init = {
        jsonrpc: '2.0',
        id: nextId++,
        method: 'initialize',
        params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: 'soak-legacy', version: '1.0.0' } },
      };
      const initialized = await post(port, agent, init, headers);
      const first = expectResult(`${this.name} (initialize)`, initialized, (r) => r.protocolVersion === LEGACY_VERSION && initialized.sessionId !== undefined);
      if (first.kind !== 'ok') return [first];
      const session = { ...headers, 'mcp-session-id': initialized.sessionId };
      const id = nextId++;
      const call = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'reindex_notes', arguments: {}, _meta: { progressToken: `c${id}` } } };
      const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'soak' } };
      let cancelled;
      // Cancelled once its first progress notification arrives, over a connection of its own (the call holds this one).
      const answer = await post(port, false, call, session, () => (cancelled = post(port, false, cancel, session)));
      const acknowledged = await cancelled;
      const events = sseEvents(answer);
      const ok = acknowledged?.status === 202 && answer.status === 200 && events.length > 0 && !answer.text.includes(`"id":${id}`);
      return [
        first,
        ok
          ? { kind: 'ok' }
          : { kind: 'unexpected', label: `${this.name}: ${describe(answer)}, cancel ${acknowledged ? describe(acknowledged) : 'not sent'}`, detail: answer.text.slice(-300) },
      ];
    },
  },
  {
    name: 'MRTR delete_note',
    weight: 10,
    async run(port, agent) {
      const round1 = modern('tools/call', { name: 'delete_note', arguments: { title: 'todo' } }, { name: 'delete_note' });
      const answer1 = await post(port, agent, round1.body, round1.headers);
      const first = expectResult(
        `${this.name} (round 1)`,
        answer1,
        (r) => r.resultType === 'input_required' && typeof r.requestState === 'string' && r.inputRequests?.confirm_delete !== undefined,
      );
      if (first.kind !== 'ok') return [first];
      const params = {
        name: 'delete_note',
        arguments: { title: 'todo' },
        inputResponses: { confirm_delete: { action: 'decline' } }, // declined: the note stays, so every round finds it
        requestState: message(answer1).result.requestState,
      };
      const round2 = modern('tools/call', params, { name: 'delete_note' });
      const answer2 = await post(port, agent, round2.body, round2.headers);
      return [first, expectResult(`${this.name} (round 2)`, answer2, (r) => r.resultType === 'complete' && r.content?.[0]?.text === 'Kept "todo".')];
    },
  },
  {
    name: 'progress stream',
    weight: 6,
    async run(port, agent) {
      const token = `p${nextId}`;
      const { body, headers } = modern('tools/call', { name: 'reindex_notes', arguments: {} }, { name: 'reindex_notes', extraMeta: { progressToken: token } });
      const answer = await post(port, agent, body, headers);
      const events = sseEvents(answer);
      const progress = events.filter((e) => e?.method === 'notifications/progress' && e.params?.progressToken === token);
      const final = events.at(-1);
      const ok =
        answer.status === 200 && answer.type.startsWith('text/event-stream') && progress.length > 0 && final?.id === body.id && final?.result?.resultType === 'complete';
      return [
        ok
          ? { kind: 'ok' }
          : {
              kind: 'unexpected',
              label: `${this.name}: ${answer.error ? `transport ${answer.error}` : `${answer.status} ${answer.type}`}`,
              detail: answer.error ?? answer.text.slice(-300),
            },
      ];
    },
  },
  {
    name: 'invalid JSON',
    weight: 4,
    async run(port, agent) {
      const { headers } = modern('tools/list');
      return [expectRefusal(this.name, await post(port, agent, '{"jsonrpc":"2.0","id":1,"method":"tools/list",', headers), 400, -32700)];
    },
  },
  {
    name: 'header mismatch',
    weight: 4,
    async run(port, agent) {
      const { body, headers } = modern('server/discover', {}, { headers: { 'mcp-method': 'tools/list' } });
      return [expectRefusal(this.name, await post(port, agent, body, headers), 400, -32020)];
    },
  },
  {
    name: 'repeated header',
    weight: 2,
    async run(port, agent) {
      const { body, headers } = modern('tools/list', {}, { headers: { 'mcp-method': ['tools/list', 'tools/list'] } });
      return [expectRefusal(this.name, await post(port, agent, body, headers), 400, -32020)];
    },
  },
  {
    name: 'unknown method',
    weight: 4,
    async run(port, agent) {
      const { body, headers } = modern('tools/nope');
      return [expectRefusal(this.name, await post(port, agent, body, headers), 404, -32601)];
    },
  },
  {
    name: 'forged requestState',
    weight: 2,
    async run(port, agent) {
      const forged = `v1.${Buffer.from('{"exp":1,"c":"x","r":1,"a":{}}').toString('base64url')}.${'A'.repeat(43)}`;
      const { body, headers } = modern('tools/call', { name: 'delete_note', arguments: { title: 'todo' }, requestState: forged }, { name: 'delete_note' });
      return [expectRefusal(this.name, await post(port, agent, body, headers), 400, -32602)];
    },
  },
  {
    name: 'unknown argument',
    weight: 3,
    async run(port, agent) {
      const { body, headers } = modern('tools/call', { name: 'echo', arguments: { text: 'x', txet: 'y' } }, { name: 'echo' });
      return [expectRefusal(this.name, await post(port, agent, body, headers), 200, undefined, 'unknown_params')];
    },
  },
  {
    name: 'oversized body',
    weight: 1,
    async run(port) {
      const { headers } = modern('tools/list');
      return [expectRefusal(this.name, await post(port, false, oversized, headers), 413, -32600)]; // its own connection: a 413 closes it
    },
  },
];

const TOTAL_WEIGHT = OPERATIONS.reduce((sum, op) => sum + op.weight, 0);
function pick() {
  let r = Math.random() * TOTAL_WEIGHT;
  for (const op of OPERATIONS) if ((r -= op.weight) < 0) return op;
  return OPERATIONS[0];
}

// ---------------------------------------------------------------------------------------------------------------
// Counters: totals and the current interval's.

class Tally {
  requests = 0;
  ok = 0;
  refusals = new Map();
  unexpected = new Map();
  add(outcome) {
    this.requests++;
    if (outcome.kind === 'ok') this.ok++;
    else {
      const map = outcome.kind === 'refusal' ? this.refusals : this.unexpected;
      map.set(outcome.label, (map.get(outcome.label) ?? 0) + 1);
    }
  }
  get refused() {
    return [...this.refusals.values()].reduce((a, b) => a + b, 0);
  }
  get unexpectedCount() {
    return [...this.unexpected.values()].reduce((a, b) => a + b, 0);
  }
}
const breakdown = (map) =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([label, n]) => `${label} ${n}`)
    .join(', ') || 'none';

// ---------------------------------------------------------------------------------------------------------------
// The server.

/** The server's resident set, in bytes, from /proc/<pid>/status (VmRSS); NaN off Linux. */
function rssOf(pid) {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? NaN : Number(kb) * 1024;
  } catch {
    return NaN;
  }
}

const ANSI = /\u001b\[[0-9;]*m/g;

async function startServer() {
  if (!existsSync(SAMPLE_MAIN)) throw new Error(`${SAMPLE_MAIN} is missing: run \`npm run build:sample\` first`);
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SOAK_SAMPLE_MAIN: SAMPLE_MAIN,
      SOAK_MEM_INTERVAL_MS: '1000',
      MCP_REQUEST_STATE_SECRET: randomBytes(48).toString('base64'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const server = { child, port, memory: undefined, complaints: [], complaintCount: 0, listening: false, exited: undefined };
  const lines = (stream, onLine) => {
    let rest = '';
    stream.on('data', (chunk) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop();
      for (const line of parts) onLine(line.replace(ANSI, ''));
    });
  };
  // After startup, any warning or error the server logs is worth a look (a fault it contained, a random secret …).
  const complain = (line) => {
    if (!server.listening || !/\b(WARN|ERROR)\b|Error|error:/.test(line)) return;
    server.complaintCount++;
    if (server.complaints.length < 5) server.complaints.push(line.trim().slice(0, 300));
  };
  lines(child.stderr, (line) => {
    if (line.startsWith('soak-memory ')) {
      server.memory = JSON.parse(line.slice('soak-memory '.length));
      server.heapFloor = Math.min(server.heapFloor ?? Infinity, server.memory.heapUsed); // the interval's lowest: near the live heap after a GC
    } else complain(line);
  });
  let startLog = '';
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the sample did not start in 60 s:\n${startLog}`)), 60_000);
    lines(child.stdout, (line) => {
      if (!server.listening) startLog += `${line}\n`;
      if (line.includes('MCP server listening')) {
        server.listening = true;
        clearTimeout(timer);
        resolve();
      } else complain(line);
    });
    child.on('exit', (code, signal) => {
      server.exited = signal ?? code;
      reject(new Error(`the sample exited (${signal ?? code}):\n${startLog}`));
    });
  });
  process.on('exit', () => child.kill());
  return server;
}

// ---------------------------------------------------------------------------------------------------------------

const mib = (bytes) => (Number.isNaN(bytes) || bytes === undefined ? '-' : (bytes / 2 ** 20).toFixed(1));
const pct = (from, to) => `${to >= from ? '+' : ''}${(((to - from) / from) * 100).toFixed(1)} %`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const server = await startServer();
  const pid = server.child.pid;
  console.log(
    `soak: sample app pid ${pid} on 127.0.0.1:${server.port}; ${WORKERS} workers for ${SECONDS} s, a report every ${INTERVAL} s; RSS baseline: the first interval starting at or after ${WARMUP} s`,
  );
  console.log(`workload (weights): ${OPERATIONS.map((op) => `${op.name} ${op.weight}`).join(', ')}\n`);
  await sleep(1100); // a first memory line
  const startRss = rssOf(pid);
  console.log(`start: RSS ${mib(startRss)} MiB, heap used ${mib(server.memory?.heapUsed)} MiB of ${mib(server.memory?.heapTotal)} MiB\n`);

  const total = new Tally();
  let interval = new Tally();
  const examples = new Map(); // unexpected label -> first detail
  let running = true;
  const record = (outcome) => {
    total.add(outcome);
    interval.add(outcome);
    if (outcome.kind === 'unexpected' && !examples.has(outcome.label)) examples.set(outcome.label, outcome.detail);
  };

  const workers = Array.from({ length: WORKERS }, async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    while (running && server.exited === undefined) {
      const op = pick();
      try {
        for (const outcome of await op.run(server.port, agent)) record(outcome);
      } catch (error) {
        record({ kind: 'unexpected', label: `${op.name}: client threw`, detail: String(error?.stack ?? error) });
      }
    }
    agent.destroy();
  });

  console.log(' time    req/s       ok  refused  unexpected  RSS mean MiB  RSS max MiB  heap used MiB  heap floor MiB  heap total MiB');
  const reports = [];
  const started = Date.now();
  let lastAt = started;
  let rssSamples = [];
  const sampler = setInterval(() => rssSamples.push(rssOf(pid)), 1000);
  const report = () => {
    const now = Date.now();
    const elapsed = (now - started) / 1000;
    const rss = rssSamples.length ? rssSamples : [rssOf(pid)];
    const sample = {
      start: (lastAt - started) / 1000,
      elapsed,
      rss: rss.reduce((a, b) => a + b, 0) / rss.length,
      rssMax: Math.max(...rss),
      heapUsed: server.memory?.heapUsed,
      heapFloor: server.heapFloor,
      heapTotal: server.memory?.heapTotal,
    };
    server.heapFloor = undefined;
    rssSamples = [];
    reports.push(sample);
    const rate = interval.requests / ((now - lastAt) / 1000);
    console.log(
      `${`${elapsed.toFixed(0)}s`.padStart(5)}  ${rate.toFixed(1).padStart(7)}  ${String(interval.ok).padStart(7)}  ${String(interval.refused).padStart(7)}  ${String(interval.unexpectedCount).padStart(10)}  ${mib(sample.rss).padStart(12)}  ${mib(sample.rssMax).padStart(11)}  ${mib(sample.heapUsed).padStart(13)}  ${mib(sample.heapFloor).padStart(14)}  ${mib(sample.heapTotal).padStart(14)}`,
    );
    console.log(`       refused: ${breakdown(interval.refusals)}`);
    if (interval.unexpectedCount) console.log(`       UNEXPECTED: ${breakdown(interval.unexpected)}`);
    interval = new Tally();
    lastAt = now;
  };
  const ticker = setInterval(report, INTERVAL * 1000);
  await Promise.race([sleep(SECONDS * 1000), new Promise((resolve) => server.child.once('exit', resolve))]);
  clearInterval(ticker);
  running = false;
  await Promise.all(workers);
  if (interval.requests > 0 || reports.length === 0) report();
  clearInterval(sampler);

  // The server must still answer a correct request.
  const probe = modern('tools/list');
  const alive = server.exited === undefined && message(await post(server.port, false, probe.body, probe.headers))?.result?.tools !== undefined;
  await sleep(1100);
  const idleRss = rssOf(pid);

  const seconds = (Date.now() - started) / 1000;
  const flags = [];
  console.log(`\nsummary: ${seconds.toFixed(0)} s, ${WORKERS} workers, ${total.requests} requests (${(total.requests / seconds).toFixed(1)} req/s)`);
  console.log(`  ok ${total.ok}; expected refusals ${total.refused} (${breakdown(total.refusals)}); unexpected ${total.unexpectedCount}`);
  for (const [label, count] of total.unexpected) console.log(`  UNEXPECTED ${label}: ${count}; first: ${JSON.stringify(examples.get(label))}`);
  if (total.unexpectedCount) flags.push(`${total.unexpectedCount} unexpected answer(s)`);

  const baseline = reports.find((r) => r.start >= WARMUP - 0.5);
  const final = reports.findLast((r) => r.elapsed - r.start >= INTERVAL / 2) ?? reports.at(-1); // not a stub of an interval at the end
  const span = (r) => `${r.start.toFixed(0)}-${r.elapsed.toFixed(0)} s`;
  console.log(
    `  RSS: start ${mib(startRss)} MiB, peak ${mib(Math.max(...reports.map((r) => r.rssMax)))} MiB, mean of the last interval ${mib(final.rss)} MiB, idle after the run ${mib(idleRss)} MiB`,
  );
  const assessed = baseline !== undefined && final !== baseline;
  if (assessed) {
    const growth = (final.rss - baseline.rss) / baseline.rss;
    console.log(
      `  RSS after warm-up (interval means): ${mib(baseline.rss)} MiB over ${span(baseline)} -> ${mib(final.rss)} MiB over ${span(final)} (${pct(baseline.rss, final.rss)})`,
    );
    console.log(
      `  heap floor after warm-up (the lowest heap used sampled each second of an interval): ${mib(baseline.heapFloor)} MiB -> ${mib(final.heapFloor)} MiB (${pct(baseline.heapFloor, final.heapFloor)})`,
    );
    if (growth > RSS_GROWTH_LIMIT) flags.push(`RSS grew ${pct(baseline.rss, final.rss)} after warm-up (limit +${RSS_GROWTH_LIMIT * 100} %)`);
  } else
    console.log(
      `  RSS growth after warm-up: not assessed (it needs an interval starting at or after ${WARMUP} s and a later one: run at least SOAK_WARMUP + 2 x SOAK_INTERVAL)`,
    );
  if (server.complaintCount)
    console.log(`  server logged ${server.complaintCount} warning/error line(s); first: ${server.complaints.map((c) => JSON.stringify(c)).join(' | ')}`);
  if (!alive) flags.push(server.exited !== undefined ? `the server exited (${server.exited})` : 'the server did not answer tools/list after the run');
  console.log(
    flags.length ? `\nFLAGGED: ${flags.join('; ')}` : `\nno flags: no unexpected answer; ${assessed ? 'RSS growth after warm-up within 10 %' : 'RSS growth not assessed'}`,
  );
  server.child.kill();
  process.exitCode = flags.length ? 1 : 0;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
