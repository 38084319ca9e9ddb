import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

import { ConformanceModule } from '../../conformance/src/app.module.js';
import { REVISIONS, failures, requiredScenarios, runSuite, type Check, type Revision } from '../support/conformance-suite.js';
import { ensureRunner } from '../support/node22-runner.js';
import { fastifyAdapter, TEST_ADAPTER } from '../support/test-app.js';

/** The tasks extension's scenarios, each with real checks (`tasks-status-notifications`, which the suite always skips, aside). */
const TASKS_SCENARIOS = [
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
];

/** Scenarios the suite runs but does not score, which this library passes all the same. */
const ALSO_PASSED: Record<Revision, readonly string[]> = {
  '2026-07-28': ['json-schema-2020-12', 'http-header-validation', 'http-custom-header-server-validation', ...TASKS_SCENARIOS],
  '2025-11-25': ['json-schema-2020-12'],
};

/** The official MCP conformance suite, pinned (`conformance/runner`), against the conformance fixture over real HTTP. */
describe('the official conformance suite against the conformance fixture', () => {
  let app: INestApplication;
  let url: string;
  const results = new Map<Revision, Map<string, Check[]>>();
  const required = new Map<Revision, string[]>();

  beforeAll(async () => {
    await ensureRunner();
    const options = { logger: false as const, forceCloseConnections: true };
    app =
      TEST_ADAPTER === 'fastify'
        ? await NestFactory.create(ConformanceModule, fastifyAdapter(options.forceCloseConnections), options)
        : await NestFactory.create(ConformanceModule, options);
    await app.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/mcp`;
    for (const revision of REVISIONS) {
      required.set(revision, await requiredScenarios(revision));
      results.set(revision, await runSuite(url, revision));
    }
  }, 600_000);
  afterAll(() => app?.close());

  describe.each(REVISIONS)('requirement set %s', (revision) => {
    it('passes every required scenario, with no failing check', () => {
      const failing = required
        .get(revision)!
        .map((scenario) => ({ scenario, failures: results.get(revision)!.has(scenario) ? failures(results.get(revision)!.get(scenario)!) : ['not run'] }))
        .filter((cell) => cell.failures.length > 0);
      expect(failing).toEqual([]);
    });

    it('reads a non-empty requirement set (so passing every required scenario means something)', () => {
      expect(required.get(revision)!.length).toBeGreaterThan(20);
    });

    it('passes the scenarios it runs without scoring (pending ones)', () => {
      const failing = ALSO_PASSED[revision].filter((scenario) => failures(results.get(revision)!.get(scenario) ?? [{ id: 'not run', status: 'FAILURE' }]).length > 0);
      expect(failing).toEqual([]);
    });
  });

  it('passes every tasks-extension scenario with real checks: none failing, each with successes', () => {
    const ran = TASKS_SCENARIOS.map((scenario) => {
      const checks = results.get('2026-07-28')!.get(scenario) ?? [];
      return { scenario, succeeded: checks.filter((c) => c.status === 'SUCCESS').length, failures: failures(checks) };
    });
    expect(ran.filter((r) => r.succeeded === 0 || r.failures.length > 0)).toEqual([]);
  });
});
