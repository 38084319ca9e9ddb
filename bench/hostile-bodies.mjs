#!/usr/bin/env node
// Hostile bodies: what a body of the worst shapes costs the server, next to a body that is one string, and what
// two connections sending such bodies do to a healthy client. Prints; asserts nothing (issue 11's targets: a
// many-small-values body at most 4x the one-string body; a healthy median within a few ms under attack).
//
//   npm run build:sample && node bench/hostile-bodies.mjs
//
// The sample app (dist-sample/) runs in a child process, pinned to one core with `taskset` when there is one (this
// script and its attacker threads on another). Environment (all optional):
//   BENCH_BODY_BYTES        size of every hostile body            (default 4194304, the default maxBodyBytes)
//   BENCH_SENDS             timed sends per shape                 (default 5, after BENCH_WARMUP untimed ones, default 2)
//   BENCH_HEALTHY_REQUESTS  healthy tools/list requests, alone    (default 300)
//   BENCH_ATTACK_SECONDS    how long the healthy client runs under attack (default 15)
//   BENCH_ATTACKERS         attacker connections                  (default 2)
//   BENCH_ATTACK_SHAPE      the shape the attackers send          (default: the costliest one measured)
//   BENCH_SERVER_CPU        the core the server is pinned to      (default 1)
//   BENCH_SAMPLE_MAIN       the sample's built main.js            (default dist-sample/sample/src/main.js)
import http from 'node:http';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

import { env, fmt, percentile, table } from './figures.mjs';
import { envelopeFor, headersFor, send as post } from './mcp-post.mjs';
import { CORES, cpuMs, startSample } from './sample-process.mjs';

const BODY_BYTES = env('BENCH_BODY_BYTES', 4 * 1024 * 1024);
const SENDS = env('BENCH_SENDS', 5);
const WARMUP = env('BENCH_WARMUP', 2);
const HEALTHY_REQUESTS = env('BENCH_HEALTHY_REQUESTS', 300);
const ATTACK_SECONDS = env('BENCH_ATTACK_SECONDS', 15);
const ATTACKERS = env('BENCH_ATTACKERS', 2);
const SERVER_CPU = env('BENCH_SERVER_CPU', 1);
const REQUEST_TIMEOUT_MS = 120_000;

/** POSTs `body` (a Buffer) and resolves with the status, the answer and the client-observed milliseconds; never rejects. */
const send = (port, agent, body, headers) => post(port, agent, body, headers, REQUEST_TIMEOUT_MS);

// ---------------------------------------------------------------------------------------------------------------
// Attacker threads: each keeps one connection busy sending the same body until told to stop.

if (!isMainThread) {
  const { port, body, headers } = workerData;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const buffer = Buffer.from(body);
  let stop = false;
  let answered = 0;
  parentPort.on('message', () => (stop = true));
  parentPort.postMessage({ started: true });
  while (!stop) {
    const result = await send(port, agent, buffer, headers);
    if (!result.error) answered++;
  }
  agent.destroy();
  parentPort.postMessage({ answered });
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------------------------
// Bodies: a tools/call whose `arguments` carry a filler of one shape, filled to BODY_BYTES at most.

const FILL = '@@FILL@@';
const KEYS = '@@KEYS@@';

/** A 2026-07-28 request body as text, with the `_meta` protocol fields (elicitation declared, for delete_note). */
const envelopeText = envelopeFor('hostile-bodies');

/** Splits a body text at its one marker and fills the gap with what `make(budget)` builds in the bytes left. */
function filled(text, marker, make) {
  const [before, after] = text.split(marker);
  const budget = BODY_BYTES - Buffer.byteLength(before) - Buffer.byteLength(after);
  const { filler, values } = make(budget);
  const body = Buffer.from(before + filler + after, 'utf8');
  if (body.length > BODY_BYTES) throw new Error(`a body of ${body.length} bytes overshoots ${BODY_BYTES}`);
  return { body, values };
}

/** `[item,item,…]` with as many items of `width` bytes (plus a comma) as fit in `budget`. */
const list = (budget, item) => {
  const n = Math.floor((budget - 1) / (item.length + 1));
  return { filler: `[${`${item},`.repeat(n - 1)}${item}]`, values: n };
};

/** As many `"kNNNNNNN":0` members as fit in `budget` (the object's other members come before them). */
const members = (budget) => {
  const n = Math.floor((budget + 1) / 13); // `"k0000000":0` is 12 bytes, plus a comma
  const parts = new Array(n);
  for (let i = 0; i < n; i++) parts[i] = `"k${String(i).padStart(7, '0')}":0`;
  return { filler: parts.join(','), values: n };
};

/** The message is level 1, params 2, arguments 3, `pad` 4: a chain of `depth` arrays inside `pad` reaches level 4 + depth. */
const NESTING_LIMIT = 128;
const chains = (depth) => (budget) => {
  const chain = `${'['.repeat(depth)}0${']'.repeat(depth)}`;
  const { filler, values } = list(budget, chain);
  return { filler, values: values * (depth + 1) };
};

/** A valid requestState of delete_note {title: "todo"} (round one of the sample's confirmation), fetched from the server. */
async function realRequestState(port) {
  const body = Buffer.from(envelopeText('tools/call', { name: 'delete_note', arguments: { title: 'todo' } }));
  const answer = await send(port, undefined, body, headersFor('tools/call', 'delete_note'));
  const state = JSON.parse(answer.text ?? '{}').result?.requestState;
  if (typeof state !== 'string') throw new Error(`delete_note did not answer input-required: ${answer.status} ${answer.text?.slice(0, 200) ?? answer.error}`);
  return state;
}

/** The shapes, in print order. `baseline` is what ratios divide by; `info` rows are printed but never attack. */
function shapes(state) {
  const call = (name, args, marker, make) => ({ method: 'tools/call', name, ...filled(envelopeText('tools/call', { name, ...args }), marker, make) });
  const pad = (make) => call('echo', { arguments: { text: 'x', pad: FILL } }, `"${FILL}"`, make);
  const keys = () => call('echo', { arguments: { text: 'x', [KEYS]: 0 } }, `"${KEYS}":0`, members);
  const oneString = (b) => ({ filler: `"${'a'.repeat(b - 2)}"`, values: 1 });
  const withState = (requestState) => call('delete_note', { arguments: { title: 'todo', [KEYS]: 0 }, requestState }, `"${KEYS}":0`, members);
  const complete = (make) => ({
    method: 'completion/complete',
    ...filled(envelopeText('completion/complete', { ref: { type: 'ref/resource', uri: FILL }, argument: { name: 'id', value: '' } }), `"${FILL}"`, make),
  });
  const forged = `v1.${Buffer.from(JSON.stringify({ exp: Date.now() + 600_000, c: 'x'.repeat(22), r: 1, a: {} })).toString('base64url')}.${'A'.repeat(43)}`;
  return [
    { id: 'tiny', label: 'tools/list, tiny (floor)', info: true, method: 'tools/list', body: Buffer.from(envelopeText('tools/list', {})), values: 0 },
    { id: 'one-string', label: 'one string in arguments.pad', baseline: true, ...pad(oneString) },
    { id: 'one-string-echoed', label: 'one string echoed back (arguments.text)', info: true, ...call('echo', { arguments: { text: FILL } }, `"${FILL}"`, oneString) },
    { id: 'unknown-keys', label: 'unknown keys in arguments', ...keys() },
    { id: 'numbers', label: 'array of small numbers', ...pad((b) => list(b, '0')) },
    { id: 'strings', label: 'array of small strings', ...pad((b) => list(b, '"a"')) },
    { id: 'objects', label: 'array of empty objects', ...pad((b) => list(b, '{}')) },
    { id: 'nested', label: `nested arrays, at the limit (${NESTING_LIMIT})`, ...pad(chains(NESTING_LIMIT - 4)) },
    { id: 'nested-over', label: 'nested arrays, one past the limit', ...pad(chains(NESTING_LIMIT - 3)) },
    { id: 'uri', label: 'one URI (completion/complete ref.uri)', info: true, ...complete((b) => ({ filler: `"notes://${'a'.repeat(b - 10)}"`, values: 1 })) },
    { id: 'state-forged', label: 'forged requestState + unknown keys', ...withState(forged) },
    { id: 'state-valid', label: 'valid requestState + unknown keys', ...withState(state) },
  ];
}

/** What an answer was, in a few words: status, then the JSON-RPC error code and problem, or the result kind. */
function summary(result) {
  if (result.error) return `transport error ${result.error}`;
  let message;
  try {
    message = JSON.parse(result.text);
  } catch {
    return `${result.status} (${result.text.length} bytes, not JSON)`;
  }
  if (message.error) return `${result.status} ${message.error.code}${message.error.data?.problem ? ` ${message.error.data.problem}` : ''}`;
  const res = message.result ?? {};
  if (res.isError) {
    let refusal;
    try {
      refusal = JSON.parse(res.content?.[0]?.text ?? '');
    } catch {
      refusal = {};
    }
    return `${result.status} isError ${refusal.error ?? refusal.errorType ?? ''}`.trim();
  }
  return `${result.status} ${res.resultType ?? 'result'}${result.text.length > 100_000 ? ` (${(result.text.length / 2 ** 20).toFixed(1)} MiB)` : ''}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Measurements.

/** Sends one shape WARMUP + SENDS times on one keep-alive connection; the median of the timed sends, and the server's CPU per send. */
async function measure(server, shape) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const headers = headersFor(shape.method, shape.name);
  let last;
  for (let i = 0; i < WARMUP; i++) last = await send(server.port, agent, shape.body, headers);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const times = [];
  const cpuBefore = cpuMs(server.child.pid);
  for (let i = 0; i < SENDS; i++) {
    last = await send(server.port, agent, shape.body, headers);
    times.push(last.ms);
  }
  const cpu = (cpuMs(server.child.pid) - cpuBefore) / SENDS;
  agent.destroy();
  return { median: percentile(times, 50), max: Math.max(...times), cpu, answer: summary(last) };
}

/** `count` sequential tools/list on one keep-alive connection (or until `untilMs` passes); their latencies. */
async function healthy(port, { count = Infinity, untilMs = Infinity }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const body = Buffer.from(envelopeText('tools/list', {}));
  const headers = headersFor('tools/list');
  const times = [];
  let failures = 0;
  while (times.length + failures < count && Date.now() < untilMs) {
    const result = await send(port, agent, body, headers);
    if (result.error || result.status !== 200) failures++;
    else times.push(result.ms);
  }
  agent.destroy();
  return { times, failures };
}

/** Starts the attacker threads; resolves once each has begun, with a stop() that resolves to the answers they got. */
async function attack(port, shape) {
  const workers = [];
  for (let i = 0; i < ATTACKERS; i++) {
    const worker = new Worker(new URL(import.meta.url), { workerData: { port, body: shape.body, headers: headersFor(shape.method, shape.name) } });
    await new Promise((resolve) => worker.once('message', resolve));
    workers.push(worker);
  }
  return async () => {
    const counts = await Promise.all(
      workers.map(
        (worker) =>
          new Promise((resolve) => {
            worker.on('message', (message) => message.answered !== undefined && resolve(message.answered));
            worker.postMessage('stop');
          }),
      ),
    );
    return counts.reduce((a, b) => a + b, 0);
  };
}

async function main() {
  const server = await startSample({ serverCpu: SERVER_CPU });
  console.log(`hostile bodies: sample app pid ${server.child.pid} on 127.0.0.1:${server.port}; ${server.pinned}; Node ${process.version}; ${CORES} cores`);
  console.log(`each body at most ${BODY_BYTES} bytes; ${SENDS} timed sends per shape after ${WARMUP} untimed, one keep-alive connection; times are client-observed`);
  console.log("(server CPU: the server process's user+system time per timed send, from /proc, at the clock tick's resolution)\n");

  const all = shapes(await realRequestState(server.port));
  const results = new Map();
  for (const shape of all) {
    results.set(shape.id, await measure(server, shape));
    if (server.exited !== undefined) throw new Error(`the server exited (${server.exited}) while "${shape.id}" was sent; its last output:\n${server.log().slice(-2000)}`);
  }
  const base = results.get('one-string').median;
  const baseCpu = results.get('one-string').cpu;
  table(
    [
      ['shape', 'bytes', 'values', 'median ms', 'max ms', 'x one string', 'server CPU ms', 'CPU x one string', 'answer'],
      ...all.map((shape) => {
        const r = results.get(shape.id);
        return [shape.label, shape.body.length, shape.values, fmt(r.median), fmt(r.max), (r.median / base).toFixed(1), fmt(r.cpu), (r.cpu / baseCpu).toFixed(1), r.answer];
      }),
    ],
    { textLast: true },
  );

  const candidates = all.filter((shape) => !shape.baseline && !shape.info);
  const chosen = process.env.BENCH_ATTACK_SHAPE
    ? all.find((shape) => shape.id === process.env.BENCH_ATTACK_SHAPE)
    : candidates.reduce((worst, shape) => (results.get(shape.id).median > results.get(worst.id).median ? shape : worst));
  if (!chosen) throw new Error(`BENCH_ATTACK_SHAPE must be one of: ${all.map((shape) => shape.id).join(', ')}`);

  await healthy(server.port, { count: 50 }); // warm-up
  const alone = await healthy(server.port, { count: HEALTHY_REQUESTS });
  const stop = await attack(server.port, chosen);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const attackStarted = Date.now();
  const attacked = await healthy(server.port, { untilMs: attackStarted + ATTACK_SECONDS * 1000 });
  const attackerAnswers = await stop();
  if (server.exited !== undefined) throw new Error(`the server exited (${server.exited}) under attack; its last output:\n${server.log().slice(-2000)}`);
  const attackSeconds = (Date.now() - attackStarted) / 1000;

  console.log(`\nhealthy client: sequential tools/list on one keep-alive connection; attackers: ${ATTACKERS} connections looping "${chosen.id}" (${chosen.label})`);
  table(
    [
      ['condition', 'requests', 'failed', 'median ms', 'p99 ms', 'max ms', 'attacker bodies/s'],
      ['alone', alone.times.length, alone.failures, fmt(percentile(alone.times, 50)), fmt(percentile(alone.times, 99)), fmt(Math.max(...alone.times)), '-'],
      [
        `under attack (${ATTACK_SECONDS} s)`,
        attacked.times.length,
        attacked.failures,
        fmt(percentile(attacked.times, 50)),
        fmt(percentile(attacked.times, 99)),
        fmt(Math.max(...attacked.times)),
        (attackerAnswers / attackSeconds).toFixed(1),
      ],
    ],
    { textLast: true },
  );
  const delta = percentile(attacked.times, 50) - percentile(alone.times, 50);
  console.log(`\nmedian under attack - median alone: ${fmt(delta)} ms; the attack shape cost ${(results.get(chosen.id).median / base).toFixed(1)}x the one-string body`);
  console.log("issue 11's targets: a many-small-values body at most 4x the one-string body; the healthy median within a few ms under attack");
  server.child.kill();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
