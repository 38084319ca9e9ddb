import { once } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import tls from 'node:tls';

import { describe, expect, it } from '@jest/globals';

import type { WorkUnderWay } from '../../lib/contracts/shutdown-deadline.js';
import { endAfterBody } from '../../lib/response/lingering-close.js';
import { MountClosing } from '../../lib/response/mount-closing.js';
import { collectGarbage } from '../support/collect-garbage.js';
import { TLS_CERT, TLS_KEY } from '../support/tls-fixture.js';
import { until } from '../support/wait.js';

describe('MountClosing', () => {
  it('keeps the deadline its first shutdown hook set, and ends what ends as it begins once, when the hooks run again (a second teardown)', async () => {
    const closing = new MountClosing({ shutdownGraceMs: 300 });
    const ended: number[] = [];
    let begun = 0;
    closing.whenClosing(() => void begun++);
    const started = Date.now();
    // An answer that never closes by itself: only the deadline ends it.
    closing.track({ whenClosed: () => new Promise<void>(() => undefined), endForShutdown: () => void ended.push(Date.now() - started) });
    closing.onModuleDestroy();
    await sleep(200);
    closing.onModuleDestroy();
    await closing.beforeApplicationShutdown();
    expect([ended.length, begun]).toEqual([1, 1]);
    // Ended at the first hook's deadline (300 ms), not one moved to the second's (500 ms).
    expect(ended[0]).toBeGreaterThanOrEqual(290);
    expect(ended[0]).toBeLessThan(480);
  });

  /** An answer that closes only when the deadline ends it, noting when that was. */
  function answerEndedAt(ended: number[], started: number) {
    return { whenClosed: () => new Promise<void>(() => undefined), endForShutdown: () => void ended.push(Date.now() - started) };
  }

  it('ends at the deadline an answer tracked once its wait was over (nothing under way when the hook ran)', async () => {
    const closing = new MountClosing({ shutdownGraceMs: 200 });
    const ended: number[] = [];
    const started = Date.now();
    closing.onModuleDestroy();
    await closing.beforeApplicationShutdown();
    expect(Date.now() - started).toBeLessThan(150); // nothing to wait for
    closing.track(answerEndedAt(ended, started));
    await sleep(300);
    expect(ended).toHaveLength(1);
    expect(ended[0]).toBeGreaterThanOrEqual(190);
    expect(closing.pastDeadline).toBe(true);
  });

  it('takes work whose close came before its settling as settled, rather than waiting on it again', async () => {
    const closing = new MountClosing({ shutdownGraceMs: 1_000 });
    let asked = 0;
    // Closed at once, never settled; a wait that asks again is caught by the hundredth asking (it then never closes).
    const work: WorkUnderWay = { whenClosed: () => (++asked > 100 ? new Promise<void>(() => undefined) : Promise.resolve()), endForShutdown: () => undefined };
    closing.track(work);
    closing.onModuleDestroy();
    await closing.beforeApplicationShutdown();
    expect([asked, closing.pastDeadline]).toEqual([1, false]);
  });

  it('past the deadline, ends an answer at once as it is tracked, and refuses a request before it runs', async () => {
    const closing = new MountClosing({ shutdownGraceMs: 50 });
    const started = Date.now();
    closing.onModuleDestroy();
    expect(() => closing.refuseAfterDeadline()).not.toThrow();
    await sleep(100);
    const ended: number[] = [];
    closing.track(answerEndedAt(ended, started));
    expect(ended).toHaveLength(1);
    expect(() => closing.refuseAfterDeadline()).toThrow(expect.objectContaining({ code: -32603, data: { reason: 'shutting_down' } }));
  });

  it('ends once more, when the delivery grace is over, what the deadline ended that has not closed (its client took nothing)', async () => {
    const closing = new MountClosing({ shutdownGraceMs: 50 });
    const ended: number[] = [];
    const started = Date.now();
    closing.track(answerEndedAt(ended, started));
    closing.onModuleDestroy();
    await closing.beforeApplicationShutdown();
    expect(ended).toHaveLength(1);
    await sleep(1_100);
    expect(ended).toHaveLength(2);
    expect(ended[1]! - ended[0]!).toBeGreaterThanOrEqual(990);
  });

  it('ends the lingering close of a refusal when the delivery grace after the deadline is over, begun before shutdown or during it, however steadily bytes trickle in', async () => {
    const closing = new MountClosing({ shutdownGraceMs: 100 });
    const upload = () => Object.assign(new PassThrough(), { complete: false }) as unknown as IncomingMessage & PassThrough;
    const [before, during] = [upload(), upload()];
    const ended: [string, number][] = [];
    const started = Date.now();
    const lingering = (req: IncomingMessage, name: string) => {
      closing.boundLingering(req);
      endAfterBody(req, { end: () => void ended.push([name, Date.now() - started]) } as unknown as ServerResponse);
    };
    lingering(before, 'before'); // LINGERING_CLOSE's 30 s alone as it begins
    closing.onModuleDestroy();
    lingering(during, 'during');
    const trickle = setInterval(() => (before.write('x'), during.write('x')), 50);
    try {
      await sleep(1_400);
    } finally {
      clearInterval(trickle);
    }
    expect(ended.map(([name]) => name).sort()).toEqual(['before', 'during']);
    for (const [, at] of ended) {
      expect(at).toBeGreaterThanOrEqual(1_090); // the deadline (100 ms), then the delivery grace (1 s)
      expect(at).toBeLessThan(1_300);
    }
  });

  it('lets go of a lingering close that ended by itself: the delivery grace cuts nothing of it', async () => {
    const closing = new MountClosing({ shutdownGraceMs: 10 });
    const req = Object.assign(new PassThrough(), { complete: false }) as unknown as IncomingMessage & PassThrough;
    let ends = 0;
    closing.boundLingering(req);
    endAfterBody(req, { end: () => void ends++ } as unknown as ServerResponse);
    req.end();
    req.resume();
    await until(() => ends === 1, 'the body to end');
    closing.onModuleDestroy();
    await sleep(1_100);
    expect(ends).toBe(1);
  });

  it('ends a lingering close begun once the delivery grace is over within another second, however steadily bytes trickle in', async () => {
    const closing = new MountClosing({ shutdownGraceMs: 10 });
    closing.onModuleDestroy();
    await until(() => closing.pastDeadline, 'the deadline to pass');
    await sleep(1_100); // the delivery grace
    const req = Object.assign(new PassThrough(), { complete: false }) as unknown as IncomingMessage & PassThrough;
    let ends = 0;
    closing.boundLingering(req);
    const begun = Date.now();
    endAfterBody(req, { end: () => void ends++ } as unknown as ServerResponse);
    const trickle = setInterval(() => req.write('x'), 50);
    try {
      // Not LINGERING_CLOSE's 30 s.
      await until(() => ends === 1, 'the lingering close to end', 4_000);
    } finally {
      clearInterval(trickle);
    }
    expect(Date.now() - begun).toBeGreaterThanOrEqual(900);
  });

  it("holds the process by no timer of its own (the server's close does): neither the deadline's nor the delivery grace's", async () => {
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const closing = new MountClosing({ shutdownGraceMs: 50 });
    const armed: number[] = [];
    let swept!: () => void;
    const sweep = new Promise<void>((resolve) => (swept = resolve));
    // Counted as the sweep ends it, then once the sweep is done (it arms the delivery grace after ending the work).
    const count = () => (armed.push(timers()), queueMicrotask(() => (armed.push(timers()), swept())));
    closing.track({ whenClosed: () => new Promise<void>(() => undefined), endForShutdown: count });
    const before = timers();
    closing.onModuleDestroy();
    const atClosing = timers() - before;
    await sweep;
    expect([atClosing, armed[1]! - armed[0]!]).toEqual([0, 0]);
  });

  /** Work the deadline ends, noting 50 ms later that it was ended: the shutdown's wait ends first unless the reuse grace (100 ms) runs from then. */
  it.each<[string, number, (closing: MountClosing, work: WorkUnderWay, mark: () => void) => Promise<void>, string[]]>([
    [
      "work the deadline's sweep ends: the reuse grace runs from the sweep",
      50,
      async (closing, work) => {
        closing.track(work);
        closing.onModuleDestroy();
        await closing.beforeApplicationShutdown();
      },
      ['50 ms on', 'wait over'],
    ],
    [
      'work tracked past the deadline, ended at once, then the hooks run again: the reuse grace runs from then',
      50,
      async (closing, work) => {
        closing.onModuleDestroy();
        await closing.beforeApplicationShutdown();
        await until(() => closing.pastDeadline, 'the deadline to pass');
        closing.track(work);
        closing.onModuleDestroy();
        await closing.beforeApplicationShutdown();
      },
      ['50 ms on', 'wait over'],
    ],
    [
      'an answer that closed before the shutdown began: no reuse grace',
      10_000,
      async (closing, work, mark) => {
        closing.track(work);
        closing.settled(work);
        mark();
        closing.onModuleDestroy();
        await closing.beforeApplicationShutdown();
      },
      ['wait over', '50 ms on'],
    ],
  ])('%s', async (_case, shutdownGraceMs, run, order) => {
    const closing = new MountClosing({ shutdownGraceMs });
    const seen: string[] = [];
    const mark = () => void setTimeout(() => seen.push('50 ms on'), 50);
    await run(closing, { whenClosed: () => new Promise<void>(() => undefined), endForShutdown: mark }, mark);
    seen.push('wait over');
    await sleep(150);
    expect(seen.slice(0, 2)).toEqual(order);
  });
});

describe('MountClosing.watchServer (an HTTPS server)', () => {
  it('cuts the connections carrying no request once the delivery grace is over, never one whose request runs; one opened later a second after it opened', async () => {
    let answer: (() => void) | undefined;
    const server = https.createServer({ key: TLS_KEY, cert: TLS_CERT }, (_req, res) => (answer = () => res.end('done')));
    const closing = new MountClosing({ shutdownGraceMs: 50 });
    closing.watchServer(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as AddressInfo).port;
    const closedAt = new Map<string, number>();
    const watched = <T extends net.Socket>(name: string, socket: T): T => {
      socket.on('error', () => undefined);
      socket.once('close', () => closedAt.set(name, Date.now()));
      return socket;
    };
    const secure = (name: string) => watched(name, tls.connect({ port, host: '127.0.0.1', rejectUnauthorized: false }));
    watched('silent', net.connect(port, '127.0.0.1')); // no TLS handshake either
    const [idle, busy, reused] = [secure('idle'), secure('busy'), secure('reused')];
    await Promise.all([once(idle, 'secureConnect'), once(busy, 'secureConnect'), once(reused, 'secureConnect')]);
    // Served a request, then sent part of the next one's headers: it carries none.
    reused.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await until(() => answer !== undefined, 'the first request to run');
    answer!();
    await once(reused, 'data');
    reused.write('GET / HTTP/1.1\r\n');
    answer = undefined;
    busy.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await until(() => answer !== undefined, 'the request to run');
    const started = Date.now();
    closing.onModuleDestroy();
    await closing.beforeApplicationShutdown();
    await until(() => ['silent', 'idle', 'reused'].every((name) => closedAt.has(name)), 'the connections carrying no request to be cut');
    expect(closedAt.get('silent')! - started).toBeGreaterThanOrEqual(1_000); // the deadline (50 ms), then the grace (1 s)
    const lateAt = Date.now();
    watched('late', net.connect(port, '127.0.0.1'));
    await until(() => closedAt.has('late'), 'the later connection to be cut');
    expect(closedAt.get('late')! - lateAt).toBeGreaterThanOrEqual(900);
    expect(closedAt.has('busy')).toBe(false);
    const reply = new Promise<string>((resolve) => busy.once('data', (chunk: Buffer) => resolve(chunk.toString())));
    answer!();
    expect(await reply).toMatch(/^HTTP\/1\.1 200 /);
    busy.destroy();
    server.close();
    await once(server, 'close');
  });
});

describe('MountClosing.watchServer (an HTTP/2 server over TLS, HTTP/1.1 allowed), once the delivery grace is over', () => {
  it("cuts a connection opened then that carried no request (or no TLS handshake) a second later, never an HTTP/2 session's or one that carried a request", async () => {
    const server = http2.createSecureServer({ key: TLS_KEY, cert: TLS_CERT, allowHTTP1: true }, (req, res) => {
      setTimeout(() => res.end('done'), req.url === '/slow' ? 2_500 : 0);
    });
    const closing = new MountClosing({ shutdownGraceMs: 50 });
    closing.watchServer(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as AddressInfo).port;
    closing.onModuleDestroy();
    await closing.beforeApplicationShutdown();
    await sleep(1_200); // the deadline (50 ms), then the delivery grace (1 s)
    const closed = new Set<string>();
    const watched = <T extends net.Socket>(name: string, socket: T): T => {
      socket.on('error', () => undefined);
      socket.once('close', () => closed.add(name));
      return socket;
    };
    const options = { port, host: '127.0.0.1', rejectUnauthorized: false };
    watched('bare', net.connect(port, '127.0.0.1'));
    const silent = watched('silent', tls.connect({ ...options, ALPNProtocols: ['http/1.1'] }));
    const served = watched('served', tls.connect({ ...options, ALPNProtocols: ['http/1.1'] }));
    await Promise.all([once(silent, 'secureConnect'), once(served, 'secureConnect')]);
    served.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await once(served, 'data');
    // HTTP/2 over TLS: a call still running when its session is closed (a second after it opened), and a second
    // after that, is answered.
    const session = http2.connect(`https://localhost:${port}`, { rejectUnauthorized: false });
    session.on('error', () => undefined);
    const slow = session.request({ ':path': '/slow' });
    let body = '';
    slow.setEncoding('utf8');
    slow.on('data', (chunk: string) => (body += chunk));
    const status = new Promise<number>((resolve) => slow.once('response', (headers) => resolve(Number(headers[':status']))));
    await once(slow, 'end');
    expect([await status, body]).toEqual([200, 'done']);
    expect([...closed].sort()).toEqual(['bare', 'silent']);
    served.destroy();
    session.destroy();
    server.close();
    await once(server, 'close');
  });
});

describe('MountClosing.watchServer (an HTTP/2 server, cleartext)', () => {
  /** An HTTP/2 frame: its 9-byte header, then `payload`. */
  const frame = (type: number, flags: number, stream: number, payload: Buffer) => {
    const header = Buffer.alloc(9);
    header.writeUIntBE(payload.length, 0, 3);
    header.writeUInt8(type, 3);
    header.writeUInt8(flags, 4);
    header.writeUInt32BE(stream, 5);
    return Buffer.concat([header, payload]);
  };
  /** An HPACK string literal (no Huffman coding), shorter than 127 bytes. */
  const literal = (text: string) => Buffer.concat([Buffer.from([text.length]), Buffer.from(text)]);

  it('cuts the connection of a session it closed once its call past the delivery grace is answered, though the client never closes its side', async () => {
    const server = http2.createServer((_req, res) => void setTimeout(() => res.end('done'), 1_800));
    const closing = new MountClosing({ shutdownGraceMs: 50 });
    closing.watchServer(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    let closed = false;
    // A client that reads all and never ends its side: a Node client would close on the server's FIN.
    const socket = net.connect({ port: (server.address() as AddressInfo).port, host: '127.0.0.1', allowHalfOpen: true });
    socket.on('error', () => undefined);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    await once(socket, 'connect');
    // GET / (:method GET, :scheme http, :path and :authority as literals), its stream ended.
    const headers = Buffer.concat([Buffer.from([0x82, 0x86, 0x04]), literal('/'), Buffer.from([0x01]), literal('localhost')]);
    socket.write(Buffer.concat([Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), frame(4, 0, 0, Buffer.alloc(0)), frame(1, 0x5, 1, headers)]));
    try {
      await sleep(100); // the call runs
      closing.onModuleDestroy();
      await closing.beforeApplicationShutdown();
      server.close(() => (closed = true));
      // The call ends 0.7 s after the delivery grace; its session then ends, and the connection is cut.
      await until(() => closed, "the server's close to complete", 5_000);
      expect(received).toContain('done');
    } finally {
      socket.destroy();
    }
  });
});

describe('MountClosing.watchServer, before any shutdown', () => {
  it.each([
    ['an HTTP/1.1 connection', 'connection', () => http.createServer((_req, res) => res.end()), (port: number) => net.connect(port, '127.0.0.1')],
    ['an HTTP/2 session', 'session', () => http2.createServer(), (port: number) => http2.connect(`http://127.0.0.1:${port}`)],
  ] as const)('lets go of %s once it has closed', async (_what, event, createServer, connect) => {
    const server = createServer();
    new MountClosing({ shutdownGraceMs: 10_000 }).watchServer(server);
    let watched: WeakRef<object> | undefined;
    let closed = false;
    server.once(event, (opened: net.Socket | http2.ServerHttp2Session) => {
      watched = new WeakRef(opened);
      opened.once('close', () => (closed = true));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const client = connect((server.address() as AddressInfo).port);
    client.on('error', () => undefined);
    try {
      await until(() => watched !== undefined, `the server's ${event}`);
      client.destroy();
      await until(() => closed, `the ${event} to close`);
      await collectGarbage();
      expect(watched!.deref()).toBeUndefined();
    } finally {
      server.close();
    }
  });
});
