import { readFileSync } from 'node:fs';

import { describe, expect, it } from '@jest/globals';

import * as api from '../../lib/index.js';

describe('the public API', () => {
  it('exports exactly the reviewed list of runtime names', () => {
    expect(Object.keys(api).sort()).toMatchSnapshot();
  });

  it('exports exactly the reviewed list of type names', () => {
    const index = readFileSync(new URL('../../lib/index.ts', import.meta.url), 'utf8');
    const types = [...index.matchAll(/export type \{([^}]+)\}/g)].flatMap((match) =>
      match[1]!
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean),
    );
    expect(types.sort()).toMatchSnapshot();
  });

  // A symbol from Symbol() would differ between the ES module and CommonJS copies an app may load together.
  it('exports every injection token as a registered symbol (Symbol.for)', () => {
    const tokens = Object.entries(api as Record<string, unknown>).filter((entry): entry is [string, symbol] => typeof entry[1] === 'symbol');
    expect(tokens.length).toBeGreaterThan(0);
    expect(tokens.filter(([, token]) => Symbol.keyFor(token) === undefined).map(([name]) => name)).toEqual([]);
  });

  it('marks every exported declaration @publicApi at its home', () => {
    const index = readFileSync(new URL('../../lib/index.ts', import.meta.url), 'utf8');
    const missing: string[] = [];
    for (const match of index.matchAll(/export (?:type )?\{([^}]+)\} from '\.\/([^']+)\.js'/g)) {
      const source = readFileSync(new URL(`../../lib/${match[2]}.ts`, import.meta.url), 'utf8');
      for (const name of match[1]!
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean)) {
        const declaration = new RegExp(
          `/\\*\\*(?:(?!\\*/)[\\s\\S])*@publicApi(?:(?!\\*/)[\\s\\S])*\\*/\\s*(?:@[^\\n]+\\n\\s*)*export (?:declare )?(?:abstract )?(?:class|interface|type|const|function|enum) ${name}\\b`,
        );
        if (!declaration.test(source)) missing.push(`${name} (lib/${match[2]}.ts)`);
      }
    }
    expect(missing).toEqual([]);
  });
});
