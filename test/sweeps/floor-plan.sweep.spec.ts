import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from '@jest/globals';
import { ESLint } from 'eslint';

import { floors } from '../../eslint.config.js';

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

/** Per floor: a real file to import from, and a folder (or the lib root) to place a probe file in. */
const sites = floors.map((floor) => {
  const folder = floor.paths.find((p) => !p.endsWith('.ts') && p !== 'lib/schema');
  const target = folder
    ? path.join(
        folder,
        readdirSync(path.join(root, folder))
          .filter((f) => f.endsWith('.ts'))
          .sort()[0]!,
      )
    : floor.paths[0]!;
  return { name: floor.name, probeDir: folder ?? 'lib', target };
});

/** Lints a probe file placed on one floor that imports a file of another; returns the floor-rule messages. */
async function floorRuleMessages(probeDir: string, target: string): Promise<string[]> {
  const probe = path.join(root, probeDir, '__floor_probe__.ts');
  const specifier = `./${path.relative(path.dirname(probe), path.join(root, target)).replace(/\.ts$/, '.js')}`.replace(/^\.\/\.\.\//, '../');
  const [result] = await eslint.lintText(`import type * as probe from '${specifier}';\nexport type Probe = typeof probe;\n`, { filePath: probe });
  return result!.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
}

describe('the floor plan (eslint.config.js floors): imports run down only', () => {
  const cells = sites.flatMap((from, i) => sites.map((to, j) => ({ from, to, upward: j < i })).filter((_, j) => j !== i));
  it.each(cells.map((c) => [c.from.name, c.upward ? 'refuses' : 'allows', c.to.name, c]))('%s %s an import from %s', async (_from, _verdict, _to, cell) => {
    const { from, to, upward } = cell as (typeof cells)[number];
    const messages = await floorRuleMessages(from.probeDir, to.target);
    expect(messages.length > 0).toBe(upward);
    if (upward) expect(messages[0]).toContain(`${from.name} may not import from ${to.name}`);
  });
});

describe('the floor plan as CONTRIBUTING.md tells it', () => {
  const contributing = readFileSync(path.join(root, 'CONTRIBUTING.md'), 'utf8');
  const rows = new Map([...contributing.matchAll(/^\| (F\d) +\| ([^|]+)\|/gm)].map((m) => [m[1]!, [...m[2]!.matchAll(/`([^`]+)`/g)].map((n) => n[1]!)]));
  it.each(floors.map((floor) => ({ name: floor.name, floor })))('$name: its row names exactly its paths', ({ floor }) => {
    const row = rows.get(floor.name.split(' ')[0]!);
    const named = floor.paths.map((p) => (p.endsWith('.ts') ? path.basename(p) : `${path.basename(p)}/`));
    expect(row?.sort()).toEqual(named.sort());
  });
});
