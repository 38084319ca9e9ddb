// `npm run bench`: builds what it needs, then measures each server side by side, interleaved over rounds, with the
// server pinned to core 1 and the load generator (autocannon, bench/load.mjs) to core 0, and prints the tables.
// What is measured and why: bench/README.md. Nothing here asserts a timing; the benchmark is never part of npm test.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import { messagesOf } from './answer-messages.mjs';

/** The repository root: every path below is relative to it. */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
process.chdir(ROOT);

/** A numeric environment knob, or its default. */
function knob(name, fallback) {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0) throw new Error(`${name} must be a number >= 0, got ${JSON.stringify(value)}`);
  return number;
}

/** The knobs (README "Knobs"). */
const SETTINGS = {
  seconds: knob('BENCH_SECONDS', 4),
  warmup: knob('BENCH_WARMUP', 2),
  rounds: Math.max(1, Math.round(knob('BENCH_ROUNDS', 3))),
  connections: Math.max(1, Math.round(knob('BENCH_CONNECTIONS', 10))),
  port: knob('BENCH_PORT', 3900),
  listTools: Math.round(knob('BENCH_LIST_TOOLS', 100)),
  // A cold start is one sample of much noise on a shared machine: each round times several of each.
  starts: Math.max(1, Math.round(knob('BENCH_STARTS', 3))),
  sections: (process.env.BENCH_SECTIONS ?? 'main,list,init').split(',').map((section) => section.trim()),
  skipBuild: process.env.BENCH_SKIP_BUILD === '1',
};

const started = performance.now();

/** Runs a command to completion in the foreground, or stops the benchmark. */
function run(command, args) {
  console.log(`$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal})`);
}

// 1. What a fresh clone needs: the npm dependencies (autocannon and the SDK among the devDependencies), the package
//    (dist/, through `npm run build`, which the bench app imports as `nest-mcp`) and the bench servers (dist-bench/).
const NEEDED = ['autocannon', 'typescript', '@nestjs/platform-fastify', '@modelcontextprotocol/server', '@modelcontextprotocol/node'];
if (NEEDED.some((name) => !existsSync(`node_modules/${name}/package.json`))) run('npm', ['install', '--no-audit', '--no-fund']);
if (SETTINGS.skipBuild && existsSync('dist/bundle/index.js')) console.log('BENCH_SKIP_BUILD=1: using the existing dist/');
else run('npm', ['run', 'build']);
run('rm', ['-rf', 'dist-bench']);
run('npx', ['tsc', '-p', 'bench/tsconfig.json']);

// The workloads need the compiled common data, so they are loaded only now.
const { ID_PLACEHOLDER, WORKLOADS } = await import('./requests.mjs');

// 2. Pinning: the server on core 1, the load generator (and this orchestrator) on core 0.
const PINNED = existsSync('/usr/bin/taskset') || spawnSync('sh', ['-c', 'command -v taskset']).status === 0;
const CORES = os.availableParallelism();
if (!PINNED || CORES < 2) console.warn(`! not pinning to cores (taskset ${PINNED ? 'found' : 'missing'}, ${CORES} cores): figures are less stable`);
const pinning = PINNED && CORES >= 2;
if (pinning) spawnSync('taskset', ['-pc', '0', String(process.pid)], { stdio: 'ignore' });

/** `[command, args]` running `args` on one core (or unpinned when pinning is unavailable). */
function onCore(core, args) {
  return pinning ? ['taskset', ['-c', String(core), ...args]] : [args[0], args.slice(1)];
}

/**
 * The server processes measured. `floor`: the floor of its adapter; `more`: workloads measured on it besides echo and
 * validate; `isFloor`: a fixed answer, so not asked to refuse invalid arguments.
 */
const TARGETS = [
  {
    key: 'nest-mcp express',
    script: 'dist-bench/bench/app/main.js',
    env: { BENCH_ADAPTER: 'express' },
    floor: 'floor express',
    more: ['action-echo', 'action-validate', 'legacy', 'mrtr', 'progress'],
  },
  { key: 'floor express', script: 'dist-bench/bench/floor/main.js', env: { BENCH_ADAPTER: 'express' }, floor: 'floor express', more: [], isFloor: true },
  { key: 'SDK v2 node:http', script: 'dist-bench/bench/sdk/main.js', env: {}, floor: 'floor express', more: ['legacy'] },
  { key: 'nest-mcp fastify', script: 'dist-bench/bench/app/main.js', env: { BENCH_ADAPTER: 'fastify' }, floor: 'floor fastify', more: [] },
  { key: 'floor fastify', script: 'dist-bench/bench/floor/main.js', env: { BENCH_ADAPTER: 'fastify' }, floor: 'floor fastify', more: [], isFloor: true },
];
/**
 * The checking floors: each adapter's floor checking a call's arguments against its tool's input schema first
 * (`BENCH_FLOOR_CHECKS=1`), as the MCP spec requires of every server. Measured on validate only, started once a
 * round: what that check alone costs a server that does nothing else, beside what the whole MCP layer costs.
 */
const CHECKING_TARGETS = TARGETS.filter((target) => target.isFloor).map((floor) => ({
  ...floor,
  key: `checking ${floor.key}`,
  env: { ...floor.env, BENCH_FLOOR_CHECKS: '1' },
  ours: floor.key.replace('floor', 'nest-mcp'),
  isFloor: false, // asked to refuse invalid arguments, as the MCP servers are
  checking: true,
}));
/** The servers of the `tools/list` workload, each with BENCH_LIST_TOOLS registered tools. */
const LIST_TARGETS = TARGETS.filter((target) => ['nest-mcp express', 'floor express', 'SDK v2 node:http'].includes(target.key));
const SDK = 'SDK v2 node:http';

const URL_OF = `http://127.0.0.1:${SETTINGS.port}/mcp`;

/**
 * Sends one operation of a workload (one request, or both rounds of the MRTR call) and checks the final answer;
 * resolves with the problem found (undefined when correct). Throws when the server cannot be reached.
 */
async function sendAndCheck(workloadKey, id) {
  const workload = WORKLOADS[workloadKey];
  const context = {};
  const answers = [];
  let messages = [];
  for (const [index, request] of workload.requests.entries()) {
    const built = request.setupRequest ? request.setupRequest(request, context) : request;
    const response = await fetch(URL_OF, { method: 'POST', headers: built.headers, body: built.body.replaceAll(ID_PLACEHOLDER, `${id}-${index}`) });
    const text = await response.text();
    if (response.status !== 200 && !workload.refusal) return `HTTP ${response.status}: ${text.slice(0, 500)}`;
    try {
      messages = messagesOf(response.headers.get('content-type'), text);
    } catch {
      return `unparsable answer (${response.headers.get('content-type')}): ${text.slice(0, 500)}`;
    }
    answers.push(messages.at(-1));
    request.onResponse?.(response.status, text, context);
  }
  const final = answers.at(-1);
  const problem = final?.error && !workload.refusal ? `JSON-RPC error ${JSON.stringify(final.error)}` : workload.check(final, messages, answers);
  return problem && `${problem}\n  answer: ${JSON.stringify(final).slice(0, 500)}`;
}

/** Spawns a server on core 1 and polls `probe` until its first correct answer; resolves with the process and the time. */
async function startServer(target, extraEnv, probe) {
  const t0 = performance.now();
  const [command, args] = onCore(1, [process.execPath, target.script]);
  const child = spawn(command, args, {
    env: { ...process.env, ...target.env, ...extraEnv, PORT: String(SETTINGS.port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`${target.key} exited (${child.exitCode}) before answering:\n${stderr}`);
    let problem;
    try {
      problem = await sendAndCheck(probe, `probe-${attempt}`);
    } catch {
      if (performance.now() - t0 > 30_000) {
        child.kill('SIGKILL');
        throw new Error(`${target.key} did not answer within 30 s:\n${stderr}`);
      }
      await sleep(10);
      continue;
    }
    if (problem) {
      child.kill('SIGKILL');
      throw new Error(`${target.key}: wrong first answer to ${probe}: ${problem}\n${stderr}`);
    }
    return { child, startupMs: performance.now() - t0 };
  }
}

/** Stops a server and waits for it to exit (SIGKILL after 3 s). */
async function stopServer(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

/** The resident set size of a process, in MiB (VmRSS of /proc/<pid>/status). */
function rssMiB(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/** Runs bench/load.mjs on core 0 for one workload against the server process `pid`; resolves with its JSON figures. */
function runLoad(workload, pid) {
  const config = { url: URL_OF, workload, connections: SETTINGS.connections, warmupSeconds: SETTINGS.warmup, seconds: SETTINGS.seconds, pid };
  const [command, args] = onCore(0, [process.execPath, 'bench/load.mjs', JSON.stringify(config)]);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => {
      const last = stdout.trim().split('\n').at(-1);
      if (code === 0 && last) resolve(JSON.parse(last));
      else reject(new Error(`load generator failed (${code}) on ${workload}:\n${stderr}`));
    });
  });
}

/** Per-round samples: samples[server][measure] is one number per round. */
const samples = {};
function record(server, measure, value) {
  ((samples[server] ??= {})[measure] ??= []).push(value);
}

/** Answers that were not 2xx, connection errors, timeouts or failed body checks during the measured runs. */
const faults = [];

/** Measures one workload on a running server (process `pid`) and records it. */
async function measure(server, workload, pid) {
  const figures = await runLoad(workload, pid);
  record(server, `${workload}.rps`, figures.rps);
  if (figures.cpuUs !== undefined) record(server, `${workload}.cpu`, figures.cpuUs);
  record(server, `${workload}.p50`, figures.p50);
  record(server, `${workload}.p99`, figures.p99);
  const bad = figures.non2xx + figures.errors + figures.timeouts + figures.mismatches;
  if (bad > 0) faults.push(`${server} ${workload}: ${JSON.stringify(figures)}`);
  const cpu = figures.cpuUs === undefined ? '' : `  CPU ${figures.cpuUs.toFixed(0)} µs/req`;
  console.log(
    `    ${workload.padEnd(16)} ${figures.rps.toFixed(0).padStart(7)} req/s  p50 ${figures.p50} ms  p99 ${figures.p99} ms${cpu}${bad ? `  ! ${bad} bad answers` : ''}`,
  );
}

/** The order of a round: rotated by one target each round, so no server always runs first or last. */
function rotated(list, round) {
  const shift = round % list.length;
  return [...list.slice(shift), ...list.slice(0, shift)];
}

/** Runs one process of a module-init measurement on core 1; resolves with its figures. */
function runInit(kind) {
  const [command, args] = onCore(1, [process.execPath, 'dist-bench/bench/app/init-time.js', kind]);
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`init-time ${kind} failed:\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1));
}

// 3. The rounds.
for (let round = 0; round < SETTINGS.rounds; round++) {
  console.log(`\nround ${round + 1} of ${SETTINGS.rounds} (at ${((performance.now() - started) / 1000).toFixed(0)} s)`);
  if (SETTINGS.sections.includes('main')) {
    for (const target of rotated([...TARGETS, ...CHECKING_TARGETS], round)) {
      // The extra cold starts first (started, answered once, stopped), then the one the workloads run on.
      const startups = [];
      for (let extra = 1; extra < (target.checking ? 1 : SETTINGS.starts); extra++) {
        const { child, startupMs } = await startServer(target, {}, 'echo');
        await stopServer(child);
        startups.push(startupMs);
      }
      const { child, startupMs } = await startServer(target, {}, 'echo');
      startups.push(startupMs);
      try {
        console.log(`  ${target.key}: first correct answer after ${startups.map((ms) => ms.toFixed(0)).join(', ')} ms`);
        for (const workload of ['validate', ...(target.isFloor ? [] : ['validate-invalid']), ...target.more]) {
          const problem = await sendAndCheck(workload, 'check');
          if (problem) throw new Error(`${target.key}: wrong first answer to ${workload}: ${problem}`);
        }
        if (target.checking) {
          await measure(target.key, 'validate', child.pid);
          continue;
        }
        for (const ms of startups) record(target.key, 'startup', ms);
        // echo and validate take turns going first, round by round; RSS is read after both.
        for (const workload of round % 2 ? ['validate', 'echo'] : ['echo', 'validate']) await measure(target.key, workload, child.pid);
        record(target.key, 'rss', rssMiB(child.pid));
        for (const workload of target.more) await measure(target.key, workload, child.pid);
      } finally {
        await stopServer(child);
      }
    }
  }
  if (SETTINGS.sections.includes('list')) {
    for (const target of rotated(LIST_TARGETS, round)) {
      const { child } = await startServer(target, { BENCH_TOOLS: String(SETTINGS.listTools) }, 'tools-list');
      try {
        console.log(`  ${target.key}, ${SETTINGS.listTools} tools:`);
        await measure(target.key, 'tools-list', child.pid);
      } finally {
        await stopServer(child);
      }
    }
  }
  if (SETTINGS.sections.includes('init')) {
    // Each measurement is one cold process, so each round takes as many as it takes cold starts, alternating kinds.
    for (let sample = 0; sample < SETTINGS.starts; sample++) {
      for (const kind of (round + sample) % 2 ? ['bare', 'mcp'] : ['mcp', 'bare']) {
        const figures = runInit(kind);
        record(`init ${kind}`, 'ms', figures.ms);
        console.log(
          `  module init, ${kind === 'mcp' ? `nest-mcp with ${figures.tools} action tools x ${figures.actionsEach} actions` : 'bare Nest (floor module)'}: ${figures.ms.toFixed(0)} ms`,
        );
      }
    }
  }
}

// 4. The tables: medians over the rounds; each ratio is between two medians.
function median(values) {
  if (!values?.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
const med = (server, measure) => median(samples[server]?.[measure]);
const fixed = (value, digits = 0) => (Number.isFinite(value) ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '–');
const times = (value) => (Number.isFinite(value) ? `${value.toFixed(2)} x` : '–');
const row = (cells) => `| ${cells.join(' | ')} |`;

const lines = [];
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
lines.push('', `## Results (medians over ${SETTINGS.rounds} round${SETTINGS.rounds > 1 ? 's' : ''})`, '');
lines.push(`Machine: ${cpu}, ${CORES} cores, Node ${process.version}, ${os.platform()} ${os.release()}.`);
lines.push(
  `Load: autocannon, ${SETTINGS.connections} keep-alive connections, ${SETTINGS.warmup} s warm-up + ${SETTINGS.seconds} s measured per workload; ` +
    `${pinning ? 'server on core 1, load generator on core 0' : 'NOT pinned to cores'}.`,
);

if (SETTINGS.sections.includes('main')) {
  lines.push('', '### tools/call (2026-07-28 client)', '');
  lines.push(row(['server', 'workload', 'req/s', 'p50 ms', 'p99 ms', 'req/s vs its floor', 'p99 vs its floor', `req/s vs SDK`, 'CPU µs/req', 'CPU/req vs its floor']));
  lines.push(row(['---', '---', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:']));
  for (const target of TARGETS) {
    for (const workload of ['echo', 'validate']) {
      const rps = med(target.key, `${workload}.rps`);
      const p99 = med(target.key, `${workload}.p99`);
      lines.push(
        row([
          target.key,
          workload,
          fixed(rps),
          fixed(med(target.key, `${workload}.p50`), 1),
          fixed(p99, 1),
          times(rps / med(target.floor, `${workload}.rps`)),
          times(p99 / med(target.floor, `${workload}.p99`)),
          times(rps / med(SDK, `${workload}.rps`)),
          fixed(med(target.key, `${workload}.cpu`)),
          times(med(target.key, `${workload}.cpu`) / med(target.floor, `${workload}.cpu`)),
        ]),
      );
    }
  }
  lines.push(
    '',
    "CPU µs/req: the server process's user and system CPU time (all threads, from /proc) over the measured run, per request: steadier than req/s on a shared machine, and free of the load generator's ceiling.",
  );
  lines.push('', '### The checking floors (validate)', '');
  lines.push(row(['server', 'req/s', 'p99 ms', 'req/s vs its floor', 'CPU µs/req', 'CPU/req vs its floor', 'nest-mcp validate req/s vs this']));
  lines.push(row(['---', '--:', '--:', '--:', '--:', '--:', '--:']));
  for (const target of CHECKING_TARGETS) {
    const rps = med(target.key, 'validate.rps');
    const cpu = med(target.key, 'validate.cpu');
    lines.push(
      row([
        target.key,
        fixed(rps),
        fixed(med(target.key, 'validate.p99'), 1),
        times(rps / med(target.floor, 'validate.rps')),
        fixed(cpu),
        times(cpu / med(target.floor, 'validate.cpu')),
        times(med(target.ours, 'validate.rps') / rps),
      ]),
    );
  }
  lines.push(
    '',
    "A checking floor is its adapter's floor checking each call's arguments against its tool's input schema (ajv 2020 with ajv-formats, compiled once) before its fixed answer: what the input check the MCP spec requires of every server costs on its own.",
  );
  lines.push('', '### Processes', '');
  lines.push(row(['server', 'RSS after, MiB', 'RSS vs its floor', 'startup to first correct answer, ms', 'startup minus its floor, ms']));
  lines.push(row(['---', '--:', '--:', '--:', '--:']));
  for (const target of TARGETS) {
    const rss = med(target.key, 'rss');
    const startup = med(target.key, 'startup');
    lines.push(row([target.key, fixed(rss, 1), times(rss / med(target.floor, 'rss')), fixed(startup), fixed(startup - med(target.floor, 'startup'))]));
  }
  lines.push('', '### More workloads', '');
  lines.push(row(['workload', 'server', 'req/s', 'p50 ms', 'p99 ms', 'compared with', 'ratio']));
  lines.push(row(['---', '---', '--:', '--:', '--:', '---', '--:']));
  for (const target of TARGETS) {
    for (const workload of target.more) {
      const rps = med(target.key, `${workload}.rps`);
      const reference = workload === 'action-validate' ? 'validate' : 'echo'; // the same server's plain tool call
      const referenceRps = med(target.key, `${reference}.rps`);
      const label = workload === 'mrtr' ? `${WORKLOADS[workload].label}: ${fixed(rps / 2)} round trips/s` : WORKLOADS[workload].label;
      lines.push(
        row([
          label,
          target.key,
          fixed(rps),
          fixed(med(target.key, `${workload}.p50`), 1),
          fixed(med(target.key, `${workload}.p99`), 1),
          `its ${reference}`,
          times(rps / referenceRps),
        ]),
      );
    }
  }
}
if (SETTINGS.sections.includes('list')) {
  lines.push('', `### tools/list, ${SETTINGS.listTools} registered tools`, '');
  lines.push(row(['server', 'req/s', 'p50 ms', 'p99 ms', 'req/s vs floor express', 'req/s vs SDK']));
  lines.push(row(['---', '--:', '--:', '--:', '--:', '--:']));
  for (const target of LIST_TARGETS) {
    const rps = med(target.key, 'tools-list.rps');
    lines.push(
      row([
        target.key,
        fixed(rps),
        fixed(med(target.key, 'tools-list.p50'), 1),
        fixed(med(target.key, 'tools-list.p99'), 1),
        times(rps / med('floor express', 'tools-list.rps')),
        times(rps / med(SDK, 'tools-list.rps')),
      ]),
    );
  }
}
if (SETTINGS.sections.includes('init')) {
  lines.push('', '### Module init (NestFactory.create + app.init(), in-process, Express)', '');
  lines.push(row(['app', 'ms']));
  lines.push(row(['---', '--:']));
  lines.push(row([`nest-mcp, ${knob('INIT_TOOLS', 100)} action tools x ${knob('INIT_ACTIONS', 10)} actions`, fixed(med('init mcp', 'ms'))]));
  lines.push(row(['bare Nest, the floor module', fixed(med('init bare', 'ms'))]));
}
lines.push('', faults.length ? `! Bad answers during measured runs:\n${faults.join('\n')}` : 'Every first answer was checked; no bad answer during the measured runs.');
lines.push(`Total time: ${((performance.now() - started) / 1000).toFixed(0)} s.`);
console.log(lines.join('\n'));
if (faults.length) process.exitCode = 1;
