import { quoted } from '../util/bounded.js';

/** The end of a refusal naming the offending value, bounded: `, got 42`. */
export const got = (value: unknown): string => `, got ${value === undefined ? 'nothing' : quoted(value, 60)}`;

/** Thrown at module init when a module option or a tool declaration is refused, so the application does not start. @publicApi */
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
