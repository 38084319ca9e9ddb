#!/usr/bin/env node
// Listen fan-out: what a change event the application publishes costs the server when many listen streams are
// open. S raw `subscriptions/listen` streams subscribe to the sample's notes; then N `delete_note` calls, one after
// the other, each publish the three events of a deleted note (notes://index updated, the note updated, the
// resource list changed), which the server writes to every stream. Prints; asserts nothing.
//
//   npm run build:sample && node bench/listen-fanout.mjs
//
// The sample has no tool that writes a note: its one publisher is `delete_note` (two rounds: the confirmation asked,
// then answered yes). So the server is the sample's built main run by this script (LISTEN_FANOUT_SERVE=1), which
// writes a deleted note back once its events are published, and every call deletes the same note. The calls are
// first made with no stream open, for what a call costs by itself; with the streams open, N calls are timed alone,
// then N more while a healthy client calls tools/list in a loop. The server runs pinned to one core with `taskset`
// when there is one (this script and its healthy client's thread on another). Environment (all optional):
//   BENCH_STREAMS           listen streams                                   (default 2000)
//   BENCH_CALLS             timed delete_note calls                          (default 50, after BENCH_WARMUP: 5)
//   BENCH_READ              1: every stream reads; 0: only the checked ones read past the acknowledgment (default 1)
//   BENCH_CHECKED           streams whose every message is parsed and checked (default 4)
//   BENCH_HEALTHY_REQUESTS  healthy tools/list requests, alone               (default 300)
//   BENCH_SERVER_CPU        the core the server is pinned to                 (default 1)
//   BENCH_SAMPLE_MAIN       the sample's built main.js                       (default dist-sample/sample/src/main.js)
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

import { messagesOf } from './answer-messages.mjs';
import { env, fmt, percentile, table } from './figures.mjs';
import { envelopeFor, headersFor, send as post } from './mcp-post.mjs';
import { CORES, SAMPLE_MAIN as MAIN, cpuMs, rssMiB, startSample } from './sample-process.mjs';

const STREAMS = env('BENCH_STREAMS', 2000);
const CALLS = env('BENCH_CALLS', 50);
const WARMUP = env('BENCH_WARMUP', 5);
const READ = env('BENCH_READ', 1) !== 0;
const CHECKED = Math.min(env('BENCH_CHECKED', 4), STREAMS);
const HEALTHY_REQUESTS = env('BENCH_HEALTHY_REQUESTS', 300);
const SERVER_CPU = env('BENCH_SERVER_CPU', 1);
const OPENING = 100; // listen requests under way at once while the streams open
const REQUEST_TIMEOUT_MS = 60_000;

const TITLE = 'todo';
const FILTER = { resourceSubscriptions: ['notes://index', 'notes://notes'], resourcesListChanged: true };
/** What one call publishes, as a stream sees it: method and URI of each notification, in order. */
const EVENTS = [
  ['notifications/resources/updated', 'notes://index'],
  ['notifications/resources/updated', `notes://notes/${TITLE}`],
  ['notifications/resources/list_changed', undefined],
];
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

// ---------------------------------------------------------------------------------------------------------------
// Server mode: the sample's main, with the deleted note written back after its events are published.

if (isMainThread && process.env.LISTEN_FANOUT_SERVE === '1') {
  await import(pathToFileURL(MAIN).href);
  const { NotesStore } = await import(pathToFileURL(path.join(path.dirname(MAIN), 'notes', 'notes.store.js')).href);
  const remove = NotesStore.prototype.delete;
  NotesStore.prototype.delete = async function (title) {
    const text = this.get(title);
    await remove.call(this, title);
    if (text !== undefined) this.notes.set(title, text); // the next call finds it again
  };
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP: one request, timed from before it is built to the last byte of its answer.

/** A 2026-07-28 request body, with the `_meta` protocol fields (elicitation declared, for delete_note). */
const envelope = envelopeFor('listen-fanout');

/** POSTs `body` and resolves with the status, the answer and the client-observed milliseconds; never rejects. */
const send = (port, agent, body, headers) => post(port, agent, body, headers, REQUEST_TIMEOUT_MS);

const resultOf = (answer) => {
  try {
    return JSON.parse(answer.text).result;
  } catch {
    return undefined;
  }
};

/** `count` sequential tools/list on one keep-alive connection, or until told to stop; their latencies. */
async function healthy(port, count, stopped = () => false) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const body = envelope('tools/list', {});
  const headers = headersFor('tools/list');
  const times = [];
  let failures = 0;
  while (times.length + failures < count && !stopped()) {
    const result = await send(port, agent, body, headers);
    if (result.error || result.status !== 200) failures++;
    else times.push(result.ms);
  }
  agent.destroy();
  return { times, failures };
}

// The healthy client's thread: loops tools/list until told to stop, then posts its latencies.
if (!isMainThread) {
  let stop = false;
  parentPort.on('message', () => (stop = true));
  parentPort.postMessage({ started: true });
  parentPort.postMessage(await healthy(workerData.port, workerData.count ?? Infinity, () => stop));
  process.exit(0);
}

/** Runs the healthy client in a thread of its own; `count` requests, or with a stop() when `count` is undefined. */
async function healthyThread(port, count) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { port, count } });
  const result = new Promise((resolve, reject) => {
    worker.on('message', (message) => message.started === undefined && resolve(message));
    worker.on('error', reject);
  });
  await new Promise((resolve) => worker.once('message', resolve));
  return { result, stop: () => (worker.postMessage('stop'), result) };
}

/** One delete_note call: the confirmation asked (input_required), then answered yes; both rounds timed together. */
async function deleteNote(port, agent) {
  const started = process.hrtime.bigint();
  const headers = headersFor('tools/call', 'delete_note');
  const first = await send(port, agent, envelope('tools/call', { name: 'delete_note', arguments: { title: TITLE } }), headers);
  const asked = resultOf(first);
  if (asked?.resultType !== 'input_required' || typeof asked.requestState !== 'string')
    throw new Error(`delete_note round 1: ${first.status ?? first.error} ${first.text?.slice(0, 300)}`);
  const params = {
    name: 'delete_note',
    arguments: { title: TITLE },
    inputResponses: { confirm_delete: { action: 'accept', content: { confirm: true } } },
    requestState: asked.requestState,
  };
  const second = await send(port, agent, envelope('tools/call', params, 2), headers);
  const text = resultOf(second)?.content?.[0]?.text;
  if (text !== `Deleted "${TITLE}".`) throw new Error(`delete_note round 2: ${second.status ?? second.error} ${second.text?.slice(0, 300)}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

// ---------------------------------------------------------------------------------------------------------------
// Listen streams over raw sockets: each counts the messages it receives (every one carries the subscription id);
// a checked stream keeps every byte, to parse each message at the end.

const NEEDLE = `"${SUBSCRIPTION_ID}"`;

function openStream(port, index, checked) {
  const id = `listen-${index}`;
  const body = envelope('subscriptions/listen', { notifications: FILTER }, id);
  const head = [
    'POST /mcp HTTP/1.1',
    `Host: 127.0.0.1:${port}`,
    ...Object.entries(headersFor('subscriptions/listen')).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${Buffer.byteLength(body)}`,
  ].join('\r\n');
  const stream = { id, checked, messages: 0, chunks: checked ? [] : undefined, tail: '', closed: false, acked: undefined };
  stream.acked = new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(`${head}\r\n\r\n${body}`));
    stream.socket = socket;
    let first = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => {
      if (stream.chunks) stream.chunks.push(chunk);
      const text = stream.tail + chunk;
      for (let at = text.indexOf(NEEDLE); at >= 0; at = text.indexOf(NEEDLE, at + NEEDLE.length)) stream.messages++;
      stream.tail = text.slice(-(NEEDLE.length - 1));
      if (stream.messages === 0) {
        first += chunk;
        if (first.length > 4096 || /^HTTP\/1\.1 (?!200)/.test(first)) reject(new Error(`${id} was not acknowledged: ${first.slice(0, 600)}`));
      } else resolve(stream);
    });
    socket.on('error', (error) => reject(new Error(`${id}: ${error.message}`)));
    socket.on('close', () => {
      stream.closed = true;
      reject(new Error(`${id} closed before its acknowledgment`));
    });
  });
  return stream;
}

/** Opens `count` streams, OPENING at a time, each awaited until acknowledged. */
async function openStreams(port, count) {
  const checkedAt = new Set(Array.from({ length: CHECKED }, (_, i) => Math.floor(((i + 0.5) * count) / CHECKED)));
  const streams = [];
  let next = 0;
  const opener = async () => {
    while (next < count) {
      const index = next++;
      const stream = openStream(port, index, checkedAt.has(index));
      streams[index] = stream;
      await stream.acked;
    }
  };
  await Promise.all(Array.from({ length: Math.min(OPENING, count) }, opener));
  return streams;
}

/** The SSE messages of a checked stream: the HTTP head cut off, the chunked body joined, each `data:` parsed. */
function streamMessages(stream) {
  const raw = stream.chunks.join('');
  let rest = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  let body = '';
  for (;;) {
    const line = rest.indexOf('\r\n');
    if (line < 0) break;
    const size = parseInt(rest.slice(0, line), 16);
    if (!(size > 0) || rest.length < line + 2 + size) break;
    body += rest.slice(line + 2, line + 2 + size);
    rest = rest.slice(line + 2 + size + 2);
  }
  return messagesOf('text/event-stream', Buffer.from(body, 'latin1').toString('utf8'));
}

/** What is wrong with a checked stream's messages (acknowledgment, then `calls` x EVENTS in order, its own id). */
function problemsOf(stream, calls) {
  const messages = streamMessages(stream);
  const problems = [];
  if (messages[0]?.method !== 'notifications/subscriptions/acknowledged') problems.push('no acknowledgment first');
  if (messages.length !== 1 + calls * EVENTS.length) problems.push(`${messages.length - 1} events, not ${calls * EVENTS.length}`);
  for (const [i, message] of messages.entries()) {
    if (message.params?._meta?.[SUBSCRIPTION_ID] !== stream.id) problems.push(`message ${i}: subscription id ${message.params?._meta?.[SUBSCRIPTION_ID]}`);
    if (i === 0) continue;
    const [method, uri] = EVENTS[(i - 1) % EVENTS.length];
    if (message.method !== method || message.params?.uri !== uri) problems.push(`message ${i}: ${message.method} ${message.params?.uri ?? ''}, not ${method} ${uri ?? ''}`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------------------
// The server: this script in server mode, in a child process, on a free port, pinned to one core.

/** Starts this script in server mode (LISTEN_FANOUT_SERVE=1), the sample's main inside it. */
const startServer = () => startSample({ entry: fileURLToPath(import.meta.url), env: { LISTEN_FANOUT_SERVE: '1', BENCH_SAMPLE_MAIN: MAIN }, serverCpu: SERVER_CPU });

// ---------------------------------------------------------------------------------------------------------------
// Measurements.

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** `count` sequential delete_note calls on one keep-alive connection: their latencies and the server's CPU per call. */
async function calls(server, count) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times = [];
  const cpuBefore = cpuMs(server.child.pid);
  for (let i = 0; i < count; i++) times.push(await deleteNote(server.port, agent));
  agent.destroy();
  return { times, cpuBefore };
}

/** Waits until every reading stream has `expected` messages (or `ms` pass); the server's CPU when they had. */
async function delivered(server, streams, expected, ms = 30_000) {
  const deadline = Date.now() + ms;
  const reading = streams.filter((stream) => READ || stream.checked);
  while (Date.now() < deadline && reading.some((stream) => stream.messages < expected && !stream.closed)) await sleep(5);
  const cpu = cpuMs(server.child.pid);
  return { cpu, short: reading.filter((stream) => stream.messages !== expected) };
}

async function main() {
  const server = await startServer();
  const pid = server.child.pid;
  console.log(`listen fan-out: sample app pid ${pid} on 127.0.0.1:${server.port}; ${server.pinned}; Node ${process.version}; ${CORES} cores`);
  console.log(`${MAIN}`);
  console.log(`${STREAMS} listen streams (${READ ? 'every one reading' : `${CHECKED} reading, the others not reading once acknowledged`}), filter ${JSON.stringify(FILTER)}`);
  console.log(`${CALLS} timed delete_note calls after ${WARMUP} untimed, in sequence on one keep-alive connection; ${EVENTS.length} events per call`);
  console.log("(server CPU: the server process's user+system time from /proc, at the clock tick's resolution; times are client-observed)\n");

  // The calls alone: no stream open.
  await calls(server, WARMUP);
  const bare = await calls(server, CALLS);
  const bareCpu = (cpuMs(pid) - bare.cpuBefore) / CALLS;
  const rssBefore = rssMiB(pid);

  const opening = Date.now();
  const streams = await openStreams(server.port, STREAMS);
  const openSeconds = (Date.now() - opening) / 1000;
  if (!READ) for (const stream of streams) if (!stream.checked) stream.socket.pause();
  const rssOpen = rssMiB(pid);

  await healthy(server.port, 50); // warm-up
  const aloneThread = await healthyThread(server.port, HEALTHY_REQUESTS);
  const alone = await aloneThread.result;

  await calls(server, WARMUP);
  await delivered(server, streams, 1 + WARMUP * EVENTS.length);
  await sleep(200);
  const fanned = await calls(server, CALLS); // the server's CPU measured with nothing else asking
  const { cpu: cpuAfter } = await delivered(server, streams, 1 + (WARMUP + CALLS) * EVENTS.length);
  const fannedCpu = (cpuAfter - fanned.cpuBefore) / CALLS;
  await sleep(200);
  const during = await healthyThread(server.port, undefined); // then as many calls again, the healthy client running
  const watched = await calls(server, CALLS);
  const busy = await during.stop();
  const expected = 1 + (WARMUP + 2 * CALLS) * EVENTS.length;
  const { short } = await delivered(server, streams, expected);
  const rssAfter = rssMiB(pid);
  if (server.exited !== undefined) throw new Error(`the server exited (${server.exited}); its last output:\n${server.log().slice(-2000)}`);

  const perStreamEvent = (cpu) => ((cpu * 1000) / (STREAMS * EVENTS.length)).toFixed(2);
  table([
    ['calls', 'streams', 'events/call', 'reading', 'median ms', 'p99 ms', 'max ms', 'server CPU ms/call', 'µs per stream x event', 'net of the bare call'],
    ['no stream open', 0, EVENTS.length, '-', fmt(percentile(bare.times, 50)), fmt(percentile(bare.times, 99)), fmt(Math.max(...bare.times)), fmt(bareCpu), '-', '-'],
    [
      `${STREAMS} streams open`,
      STREAMS,
      EVENTS.length,
      READ ? 'all' : `${CHECKED}`,
      fmt(percentile(fanned.times, 50)),
      fmt(percentile(fanned.times, 99)),
      fmt(Math.max(...fanned.times)),
      fmt(fannedCpu),
      perStreamEvent(fannedCpu),
      perStreamEvent(fannedCpu - bareCpu),
    ],
    [
      '  again, healthy client running',
      STREAMS,
      EVENTS.length,
      READ ? 'all' : `${CHECKED}`,
      fmt(percentile(watched.times, 50)),
      fmt(percentile(watched.times, 99)),
      fmt(Math.max(...watched.times)),
      '-',
      '-',
      '-',
    ],
  ]);
  console.log("\n(a call: delete_note's two rounds; CPU per call from the first timed call until every reading stream had its events, nothing else running)");
  console.log(
    `streams opened in ${openSeconds.toFixed(1)} s; server RSS ${rssBefore.toFixed(0)} MiB before, ${rssOpen.toFixed(0)} MiB with the streams open, ${rssAfter.toFixed(0)} MiB after the calls`,
  );

  const checks = streams.filter((stream) => stream.checked).map((stream) => [stream.id, problemsOf(stream, WARMUP + 2 * CALLS)]);
  console.log(
    `checked streams (${checks.map(([id]) => id).join(', ')}): ${checks.every(([, problems]) => problems.length === 0) ? `every one got the acknowledgment and ${(WARMUP + 2 * CALLS) * EVENTS.length} events, in order, each with its own subscription id` : 'PROBLEMS'}`,
  );
  for (const [id, problems] of checks)
    if (problems.length) console.log(`  ${id}: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? ` (${problems.length} problems)` : ''}`);
  const reading = streams.filter((stream) => READ || stream.checked).length;
  console.log(
    short.length === 0
      ? `reading streams: all ${reading} counted ${expected} messages (the acknowledgment and every event)`
      : `reading streams: ${short.length} of ${reading} did not count ${expected} messages (e.g. ${short[0].id}: ${short[0].messages}${short[0].closed ? ', closed' : ''})`,
  );
  const closed = streams.filter((stream) => stream.closed).length;
  if (closed) console.log(`streams closed by the server: ${closed}`);

  console.log('\nhealthy client: sequential tools/list on one keep-alive connection, in a thread of its own');
  table([
    ['condition', 'requests', 'failed', 'median ms', 'p99 ms', 'max ms'],
    ['alone (streams open, no call)', alone.times.length, alone.failures, fmt(percentile(alone.times, 50)), fmt(percentile(alone.times, 99)), fmt(Math.max(...alone.times))],
    ['during the calls', busy.times.length, busy.failures, fmt(percentile(busy.times, 50)), fmt(percentile(busy.times, 99)), fmt(Math.max(...busy.times))],
  ]);

  for (const stream of streams) stream.socket.destroy();
  server.child.kill();
}

if (isMainThread && process.env.LISTEN_FANOUT_SERVE !== '1')
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
