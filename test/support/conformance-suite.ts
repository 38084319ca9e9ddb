import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { NODE_22, RUNNER } from './node22-runner.js';

const run = promisify(execFile);

/** The pinned official conformance suite, run by the runner's Node 22. */
const SUITE = path.join(RUNNER, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

/** The requirement sets the suite scores a server against. */
export const REVISIONS = ['2026-07-28', '2025-11-25'] as const;
export type Revision = (typeof REVISIONS)[number];

/** One check of a scenario, as the suite records it. */
export interface Check {
  readonly id: string;
  readonly status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  readonly errorMessage?: string;
}

/** The server scenarios a revision requires, read from the suite's own requirement file. */
export async function requiredScenarios(revision: Revision): Promise<string[]> {
  const text = await readFile(path.join(RUNNER, `node_modules/@modelcontextprotocol/conformance/requirements/${revision}.yaml`), 'utf8');
  const server = /^server:\n((?:\s+- .+\n)+)/m.exec(text);
  if (!server) throw new Error(`no server list in the ${revision} requirements`);
  return [...server[1]!.matchAll(/- (\S+)/g)].map((match) => match[1]!);
}

/** Runs the suite with one requirement set against `url`; the checks of every scenario it ran, by scenario. */
export async function runSuite(url: string, revision: Revision): Promise<Map<string, Check[]>> {
  const out = await mkdtemp(path.join(tmpdir(), `conformance-${revision}-`));
  try {
    await run(NODE_22, [SUITE, 'server', '--url', url, '--requirements', revision, '--timeout', '15000', '-o', out], { timeout: 240_000 }).catch(
      (error: { code?: number }) => {
        if (typeof error.code !== 'number') throw error; // a nonzero exit only says some scenario failed: read the results
      },
    );
    const results = new Map<string, Check[]>();
    for (const dir of await readdir(out)) {
      const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T/.exec(dir)?.[1];
      if (scenario) results.set(scenario, JSON.parse(await readFile(path.join(out, dir, 'checks.json'), 'utf8')) as Check[]);
    }
    return results;
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

/** The failing checks of one scenario, one line each (empty: it passed). */
export const failures = (checks: readonly Check[]): string[] => checks.filter((c) => c.status === 'FAILURE').map((c) => `${c.id}: ${c.errorMessage ?? ''}`.slice(0, 400));
