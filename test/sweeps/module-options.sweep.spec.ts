import 'reflect-metadata';
import { readFileSync } from 'node:fs';

import { describe, expect, it } from '@jest/globals';
import { Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';

import { McpConfigurationError, McpModule, type McpModuleOptions } from '../../lib/index.js';
import { MODULE_OPTION_NAMES } from '../../lib/options/module-option-rules.js';
import { EXTRAS_BESIDE, resolveOptions } from '../../lib/options/resolve-options.js';

const serverInfo = { name: 's', version: '1' };

/** The option names the README's options table has a row for (its first column). */
const README_OPTION_ROWS = (() => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const table = readme.slice(readme.indexOf('## Options'), readme.indexOf('\n## ', readme.indexOf('## Options') + 1));
  return [...table.matchAll(/^\| `(\w+)`/gm)].map((m) => m[1]);
})();

/** SECURITY.md's bounds table: the option of each row (its third column) and the row's default (its second). */
const SECURITY_BOUND_ROWS = (() => {
  const security = readFileSync(new URL('../../SECURITY.md', import.meta.url), 'utf8');
  return new Map([...security.matchAll(/^\| [^|]+\| ([^|]+)\| `([\w.]+)`/gm)].map((m) => [m[2]!, m[1]!.trim()]));
})();

/** Numeric options that bound nothing the server holds: hints the server hands to clients. */
const NOT_BOUNDS = new Set(['cache.ttlMs', 'tasks.pollIntervalMs']);

/**
 * One refused value and one accepted value per module option. `satisfies Record<keyof McpModuleOptions, …>`
 * closes the list at compile time: a new option without a cell fails the type check.
 */
const CELLS = {
  serverInfo: {
    bad: { name: 's' },
    names: 'version must be a non-empty string, got nothing',
    good: { name: 's', version: '1', icons: [{ src: 'https://x.test/i.png', sizes: ['any'] }] },
  },
  instructions: { bad: 42, names: 'got 42', good: 'Use it.\nTwo lines.' },
  allowedOrigins: { bad: ['https://a.test/path'], names: '"https://a.test/path"', good: ['https://a.test', 'http://localhost:3000'] },
  allowedHosts: { bad: 'mcp.example.com', names: 'got "mcp.example.com"', good: ['mcp.example.com'] },
  maxBodyBytes: { bad: 0, names: 'got 0', good: 1024 },
  bodyReadTimeoutMs: { bad: 1.5, names: 'got 1.5', good: 500 },
  bodyReadDeadlineMs: { bad: 0, names: 'must be a positive integer of at most 2147483647 (milliseconds)', good: 5000 },
  writeStallTimeoutMs: { bad: 0, names: 'got 0', good: 5_000 },
  maxArrivingBytes: { bad: 0, names: 'got 0', good: 8 * 1024 * 1024 },
  maxWaitingBytes: { bad: 1.5, names: 'must be a positive integer (bytes), got 1.5', good: 16 * 1024 * 1024 },
  maxUnderWayBytes: { bad: 0, names: 'must be a positive integer (bytes), got 0', good: 64 * 1024 * 1024 },
  shutdownGraceMs: { bad: 2 ** 31, names: 'must be a positive integer of at most 2147483647 (milliseconds)', good: 30_000 },
  maxBodyValues: { bad: -1, names: 'got -1', good: 50_000 },
  requireJsonContentType: { bad: 'yes', names: 'must be true or false, got "yes"', good: true },
  auth: { bad: { check: () => true }, names: 'got { check: [Function: check] }', good: { authenticate: () => ({ outcome: 'allow' }) } },
  protectedResourceMetadata: {
    bad: { resource: 'https://mcp.test/mcp', authorization_servers: [] },
    names: 'got []',
    good: { resource: 'https://mcp.test/mcp', authorization_servers: ['https://auth.test'] },
    besides: { auth: { authenticate: () => ({ outcome: 'allow' }) } },
  },
  cache: { bad: { ttlMs: -1, cacheScope: 'public' }, names: 'got -1', good: { ttlMs: 1000, cacheScope: 'public' } },
  requestState: { bad: { secrets: ['too-short'] }, names: 'secrets[0] is 9 bytes', good: { secrets: ['a-long-random-secret-0123456789-abcdefghijklmnop'], ttlMs: 60000 } },
  telemetryLogger: { bad: true, names: 'got true', good: 'all' },
  eras: { bad: 'old', names: 'got "old"', good: 'modern' },
  legacyLogLevel: { bad: 'verbose', names: 'must be one of "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency", got "verbose"', good: 'warning' },
  pageSize: { bad: 0, names: 'got 0', good: 25 },
  legacyInputRequests: {
    bad: { maxPending: 0 },
    names: 'maxPending must be a positive integer, got 0',
    good: { maxPending: 10, maxPendingBytes: 1_000_000, timeoutMs: 5000 },
  },
  eventBus: {
    bad: { publish: () => undefined },
    names: 'got { publish: [Function: publish] }',
    good: { publish: async () => undefined, subscribe: async () => () => undefined },
  },
  subscriptions: {
    bad: { keepAliveMs: 0 },
    names: 'keepAliveMs must be a positive integer of at most 2147483647 (milliseconds), got 0',
    good: { keepAliveMs: 5000, maxBufferedBytes: 65536, maxStreams: 100, maxOpenBytes: 1_000_000, subscribeTimeoutMs: 2000 },
  },
  tasks: {
    bad: { maxTasks: 0 },
    names: 'maxTasks must be a positive integer, got 0',
    good: { ttlMs: 60_000, pollIntervalMs: 500, maxTasks: 10, maxResultBytes: 1_000_000, maxRunningBytes: 2_000_000, storeTimeoutMs: 2000 },
  },
  serves: { bad: [class Tool {}, 'UsersTool'], names: 'serves[1] must be a class (a tool, resource or prompt provider), got "UsersTool"', good: [class UsersTool {}] },
} satisfies Record<keyof McpModuleOptions, { bad: unknown; names: string; good: unknown; besides?: Record<string, unknown> }>;

describe('module options sweep', () => {
  it('has one cell per module option', () => {
    expect(Object.keys(CELLS).sort()).toEqual([...MODULE_OPTION_NAMES].sort());
  });

  describe.each(MODULE_OPTION_NAMES)('option %s', (name) => {
    const cell: { bad: unknown; names: string; good: unknown; besides?: Record<string, unknown> } = CELLS[name];
    it('refuses a wrong value at module init with an error naming the option and the offending value', () => {
      const options = { serverInfo, ...cell.besides, [name]: cell.bad };
      expect(() => resolveOptions(options, 'mcp')).toThrow(McpConfigurationError);
      expect(() => resolveOptions(options, 'mcp')).toThrow(new RegExp(`^option "${name}": `));
      expect(() => resolveOptions(options, 'mcp')).toThrow(cell.names);
    });
    it('accepts a right value', () => {
      const resolved = resolveOptions({ serverInfo, ...cell.besides, [name]: cell.good }, 'mcp');
      expect(resolved[name]).toEqual(cell.good);
    });
    it('has a row in the README options table', () => {
      expect(README_OPTION_ROWS).toContain(name);
    });
  });

  /** Values on either side of a rule's edge, beyond the one cell per option. */
  it.each([
    ['cache', 'without a cacheScope', { ttlMs: 1000 }, 'cacheScope must be "public" or "private", got nothing'],
    ['requestState', 'with a repetitive secret', { secrets: ['a'.repeat(64)] }, 'secrets[0] is repetitive'],
    ['requestState', 'with a zero ttlMs', { ttlMs: 0 }, 'ttlMs must be a positive integer (milliseconds), got 0'],
    ['subscriptions', 'with a zero maxStreams', { maxStreams: 0 }, 'maxStreams must be a positive integer, got 0'],
    [
      'subscriptions',
      'with a misspelled key',
      { maxStream: 5 },
      'has unknown key(s) "maxStream" (did you mean "maxStreams"?); allowed: keepAliveMs, maxBufferedBytes, maxStreams, maxOpenBytes, subscribeTimeoutMs',
    ],
    [
      'legacyInputRequests',
      'with an unknown key',
      { timeout: 5000 },
      'has unknown key(s) "timeout" (did you mean "timeoutMs"?); allowed: maxPending, maxPendingBytes, timeoutMs',
    ],
    ['tasks', 'with an unknown key', { ttl: 5000 }, 'has unknown key(s) "ttl" (did you mean "ttlMs"?); allowed: ttlMs, pollIntervalMs,'],
    [
      'subscriptions',
      'with two misspelled keys',
      { maxStream: 5, keepAlive: 1000 },
      'has unknown key(s) "maxStream" (did you mean "maxStreams"?), "keepAlive" (did you mean "keepAliveMs"?); allowed: keepAliveMs,',
    ],
    [
      'allowedHosts',
      'holding a URL',
      ['mcp.example.com', 'https://mcp.example.com'],
      'allowedHosts[1] must be a Host header value (a name, with :port or not), not a URL, got "https://mcp.example.com"',
    ],
    [
      'protectedResourceMetadata',
      'whose resource path holds route syntax',
      { resource: 'https://mcp.example.com/tenant:one/mcp', authorization_servers: ['https://auth.example.com'] },
      'resource must have a plain path',
    ],
    ['requestState', 'with both a codec and secrets', { codec: { seal: () => '', open: () => ({}) }, secrets: [CELLS.requestState.good.secrets[0]] }, 'give one or the other'],
    ['requestState', 'with a 31-byte secret', { secrets: ['abcdefghijklmnopqrstuvwxyz01234'] }, 'secrets[0] is 31 bytes; a secret must be at least 32 bytes'],
    ['requestState', 'with a secret of five characters, repeated', { secrets: ['abcde'.repeat(8)] }, 'secrets[0] is repetitive'],
    ['requestState', 'with a secret of seven characters, repeated', { secrets: ['abcdefg'.repeat(5)] }, 'secrets[0] is repetitive'],
    [
      'requestState',
      'with 17 secrets',
      { secrets: Array.from({ length: 17 }, (_, i) => `${CELLS.requestState.good.secrets[0]}${i}`) },
      'secrets holds 17; at most 16 (the current one and those still rotating out)',
    ],
    ['pageSize', 'past 10,000', 10_001, 'must be an integer from 1 to 10000 (items per page), got 10001'],
    [
      'allowedHosts',
      'holding a user part',
      ['user@mcp.example.com'],
      'allowedHosts[0] must be a Host header value (a name, with :port or not), not a URL, got "user@mcp.example.com"',
    ],
    ['allowedHosts', 'holding a query', ['mcp.example.com?x'], 'allowedHosts[0] must be a Host header value'],
    [
      'protectedResourceMetadata',
      'whose authorization servers hold one that is no URL',
      { resource: 'https://mcp.example.com/mcp', authorization_servers: ['https://auth.example.com', 'auth'] },
      'authorization_servers entries must be URLs, got "auth"',
    ],
  ])('refuses %s %s', (name, _case, value, text) => {
    expect(() => resolveOptions({ serverInfo, [name]: value }, 'mcp')).toThrow(`option "${name}": `);
    expect(() => resolveOptions({ serverInfo, [name]: value }, 'mcp')).toThrow(text);
  });

  it.each([
    ['cache', 'with a zero ttlMs', { ttlMs: 0, cacheScope: 'private' }],
    ['requestState', 'with a codec and no secrets', { codec: { seal: () => '', open: () => ({}) }, ttlMs: 1 }],
    ['requestState', 'with a secret of 32 bytes in 16 two-byte characters', { secrets: ['éèêëàâäôöûüçîïœæ'], ttlMs: 1 }],
    ['requestState', 'with a secret of eight characters, repeated', { secrets: ['abcdefgh'.repeat(4)], ttlMs: 1 }],
    ['requestState', 'with 16 secrets', { secrets: Array.from({ length: 16 }, (_, i) => `${CELLS.requestState.good.secrets[0]}${i}`), ttlMs: 1 }],
    ['pageSize', 'of 10,000', 10_000],
  ])('accepts %s %s', (name, _case, value) => {
    expect(resolveOptions({ serverInfo, [name]: value }, 'mcp')[name as keyof McpModuleOptions]).toEqual(value);
  });

  it('refuses protectedResourceMetadata without auth (no route serves it then)', () => {
    expect(() => resolveOptions({ serverInfo, protectedResourceMetadata: CELLS.protectedResourceMetadata.good }, 'mcp')).toThrow(
      'option "protectedResourceMetadata": is served only beside an auth provider, whose 401 names it to the client; give the auth option too, or drop this one',
    );
  });

  it('names every problem at once: each wrong option (one cell per option) and each unknown one', () => {
    const options = { ...Object.fromEntries(MODULE_OPTION_NAMES.map((name) => [name, CELLS[name].bad])), bodyLimit: 10 };
    let thrown: unknown;
    try {
      resolveOptions(options, 'mcp');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(McpConfigurationError);
    const { message } = thrown as McpConfigurationError;
    expect(message).toMatch(new RegExp(`^McpModule options: have ${MODULE_OPTION_NAMES.length + 1} problems: option "`));
    expect(message).toContain('option "bodyLimit": is not a module option');
    for (const name of MODULE_OPTION_NAMES) {
      expect(message).toContain(`option "${name}": `);
      expect(message).toContain(CELLS[name].names);
    }
  });

  it('refuses an unknown option naming it, its near miss when it has one, and the known options', () => {
    expect(() => resolveOptions({ serverInfo, bodyLimit: 10 }, 'mcp')).toThrow(/^option "bodyLimit": is not a module option; known options: serverInfo, /);
    expect(() => resolveOptions({ serverInfo, allowedOrigin: ['https://app.example'] }, 'mcp')).toThrow(
      /^option "allowedOrigin": is not a module option \(did you mean "allowedOrigins"\?\); known options: serverInfo, /,
    );
  });

  it.each([
    ['an icon that is no object', [5], 'icons[0] must be an object, got 5'],
    [
      'an icon with an unknown key',
      [{ src: 'https://x.test/i.png', size: '48x48' }],
      'icons[0] has unknown key(s) "size" (did you mean "sizes"?); allowed: src, mimeType, sizes, theme',
    ],
    ['an icon whose src is no URL', [{ src: 'i.png' }], 'icons[0].src must be a URL, got "i.png"'],
    ['an icon whose mimeType is no string', [{ src: 'https://x.test/i.png', mimeType: 5 }], 'icons[0].mimeType must be a string, got 5'],
    ['an icon whose sizes are no list of strings', [{ src: 'https://x.test/i.png', sizes: '48x48' }], 'icons[0].sizes must be an array of strings, got "48x48"'],
    ['an icon of another theme', [{ src: 'https://x.test/i.png' }, { src: 'https://x.test/i.png', theme: 'blue' }], 'icons[1].theme must be "light" or "dark", got "blue"'],
  ])('refuses serverInfo with %s, naming it', (_what, icons, problem) => {
    expect(() => resolveOptions({ serverInfo: { ...serverInfo, icons } }, 'mcp')).toThrow(`option "serverInfo": ${problem}`);
  });

  it.each([
    ['an empty name', { name: '' }, 'name must be a non-empty string, got ""'],
    ['an empty version', { version: '' }, 'version must be a non-empty string, got ""'],
    ['a title that is no string', { title: 5 }, 'title must be a string, got 5'],
    ['a description that is no string', { description: 7 }, 'description must be a string, got 7'],
    ['a websiteUrl that is no URL', { websiteUrl: 'example.com' }, 'websiteUrl must be a URL, got "example.com"'],
  ])('refuses serverInfo with %s, naming it', (_what, extra, problem) => {
    expect(() => resolveOptions({ serverInfo: { ...serverInfo, ...extra } }, 'mcp')).toThrow(`option "serverInfo": ${problem}`);
  });

  it('takes the origin "null" (a sandboxed page, a file) in allowedOrigins, beside real origins', () => {
    expect(resolveOptions({ serverInfo, allowedOrigins: ['null', 'https://app.example'] }, 'mcp').allowedOrigins).toEqual(['null', 'https://app.example']);
  });

  it('requires serverInfo', () => {
    expect(() => resolveOptions({}, 'mcp')).toThrow('option "serverInfo": is required');
  });

  it('applies the documented defaults', () => {
    const resolved = resolveOptions({ serverInfo }, '/mcp/');
    expect(resolved).toMatchObject({
      path: 'mcp',
      maxBodyBytes: 4 * 1024 * 1024,
      maxBodyValues: 100_000,
      requireJsonContentType: false,
      bodyReadTimeoutMs: 10_000,
      bodyReadDeadlineMs: 60_000,
      writeStallTimeoutMs: 30_000,
      maxWaitingBytes: 128 * 1024 * 1024,
      maxUnderWayBytes: 256 * 1024 * 1024,
      maxArrivingBytes: 64 * 1024 * 1024,
      shutdownGraceMs: 10_000,
      cache: { ttlMs: 0, cacheScope: 'private' },
      telemetryLogger: 'faults',
      allowedHosts: [],
      eras: 'both',
      legacyInputRequests: { maxPending: 1000, maxPendingBytes: 268_435_456, timeoutMs: 600_000 },
      subscriptions: { keepAliveMs: 30_000, maxBufferedBytes: 262_144, maxStreams: 10_000, maxOpenBytes: 67_108_864, subscribeTimeoutMs: 10_000 },
      tasks: { ttlMs: 3_600_000, pollIntervalMs: 1000, maxTasks: 1000, maxResultBytes: 67_108_864, maxRunningBytes: 268_435_456, storeTimeoutMs: 10_000 },
      requestState: { ttlMs: 600_000 },
      legacyLogLevel: 'debug',
      pageSize: 100,
    });
    expect(resolved.allowedOrigins).toBeUndefined();
  });

  it("has a row in SECURITY.md's bounds table for every numeric option, a group option's fields included, with its default", () => {
    const numeric = Object.entries(resolveOptions({ serverInfo }, 'mcp')).flatMap(([name, value]): [string, unknown][] =>
      typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.entries(value).map(([field, v]) => [`${name}.${field}`, v]) : [[name, value]],
    );
    const bounds = numeric.filter(([name, value]) => typeof value === 'number' && !NOT_BOUNDS.has(name));
    expect(bounds.length).toBeGreaterThan(10);
    for (const [name, value] of bounds) expect([name, SECURITY_BOUND_ROWS.get(name)]).toEqual([name, expect.stringContaining((value as number).toLocaleString('en-US'))]);
  });

  it('keeps the default of a group option key given as undefined, as of an absent one', () => {
    const defaults = resolveOptions({ serverInfo }, 'mcp');
    const groups = { legacyInputRequests: defaults.legacyInputRequests, subscriptions: defaults.subscriptions, tasks: defaults.tasks };
    for (const [name, resolved] of Object.entries(groups)) {
      const keys = Object.keys(resolved).filter((key) => key !== 'store');
      expect(keys.length).toBeGreaterThan(1);
      const allUndefined = Object.fromEntries(keys.map((key) => [key, undefined]));
      expect(resolveOptions({ serverInfo, [name]: allUndefined }, 'mcp')[name as keyof typeof groups]).toEqual(resolved);
    }
  });

  it('stops the application from starting when an option is refused', async () => {
    @Module({ imports: [McpModule.forRoot({ serverInfo, maxBodyBytes: -5 })] })
    class BadHost {}
    await expect(Test.createTestingModule({ imports: [BadHost] }).compile()).rejects.toThrow('option "maxBodyBytes": must be a positive integer (bytes)');
  });

  it('refuses a bodyReadTimeoutMs beyond what a Node timer holds (2^31−1 ms), which Node would run as 1 ms', async () => {
    expect(resolveOptions({ serverInfo, bodyReadTimeoutMs: 2 ** 31 - 1 }, 'mcp').bodyReadTimeoutMs).toBe(2 ** 31 - 1);
    @Module({ imports: [McpModule.forRoot({ serverInfo, bodyReadTimeoutMs: 2 ** 31 })] })
    class SlowHost {}
    await expect(Test.createTestingModule({ imports: [SlowHost] }).compile()).rejects.toThrow(
      'option "bodyReadTimeoutMs": must be a positive integer of at most 2147483647 (milliseconds)',
    );
  });

  it.each(Object.keys(EXTRAS_BESIDE))('has a row in the README options table for the extra %s', (extra) => {
    expect(README_OPTION_ROWS).toContain(extra);
  });

  it.each(['mcp/:id', 'mcp/*', 'mcp/{x}', 'mcp(x)', 'mcp+x', 'mcp!', 'a[b]', 'mcp?', 'a\\b', 'mcp#top', 'my mcp', 'mcp\tx'])(
    'refuses a mount path with route syntax, a fragment mark or whitespace in it: %s',
    (path) => {
      expect(() => McpModule.forRoot({ path, serverInfo })).toThrow(`option "path": must be a plain path, got ${JSON.stringify(path)}`);
    },
  );

  it.each([
    [undefined, 'got nothing'],
    [null, 'got null'],
  ])('refuses %s given as the options, with a configuration error rather than a TypeError', (given, said) => {
    expect(() => McpModule.forRoot(given as never)).toThrow(new McpConfigurationError('McpModule options', `must be an object with serverInfo, ${said}`));
    expect(() => McpModule.forRootAsync(given as never)).toThrow(McpConfigurationError);
  });
});
