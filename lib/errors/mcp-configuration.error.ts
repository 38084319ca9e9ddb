import { quoted } from '../util/bounded.js';
import { nearMiss } from '../util/near-miss.js';

/** The end of a refusal naming the offending value, bounded: `, got 42`. */
export const got = (value: unknown): string => `, got ${value === undefined ? 'nothing' : quoted(value, 60)}`;

/**
 * How a configuration error's `where` names a declaration: its name quoted (`"tasks"`), or `(unnamed)` when it has no
 * string name, which the offence then shows (`got nothing`).
 */
export const declaredName = (name: unknown): string => (typeof name === 'string' ? JSON.stringify(name) : '(unnamed)');

/**
 * Thrown at module init when a module option or a tool, resource or prompt declaration is refused, so the
 * application does not start; thrown by a decorator as its class is defined when the decorator sits where it cannot
 * work. @publicApi
 */
export class McpConfigurationError extends Error {
  override readonly name = 'McpConfigurationError';

  /** @param where what the offence is in, for example `option "maxBodyBytes"` or `tool "tasks", action "create"` */
  constructor(
    readonly where: string,
    readonly offence: string,
  ) {
    super(`${where}: ${offence}`);
  }
}

/**
 * `<what> has unknown option(s) "a", "b"; allowed: …` for a declaration holding keys outside its closed set, else
 * undefined; each unknown key is followed by its near miss, if any (`"readOnly" (did you mean "readOnlyHint"?)`).
 */
export function unknownOptions(value: object, allowed: readonly string[], what: string): string | undefined {
  const unknown = Object.keys(value).filter((key) => !allowed.includes(key));
  const spell = (key: string): string => `${JSON.stringify(key)}${nearMissHint(key, allowed)}`;
  return unknown.length ? `${what} has unknown option(s) ${unknown.map(spell).join(', ')}; allowed: ${allowed.join(', ')}` : undefined;
}

/** What follows a refused key that nearly spells an allowed one (` (did you mean "readOnlyHint"?)`), else nothing. */
export function nearMissHint(key: string, allowed: readonly string[]): string {
  const meant = nearMiss(key, allowed);
  return meant === undefined ? '' : ` (did you mean ${JSON.stringify(meant)}?)`;
}
