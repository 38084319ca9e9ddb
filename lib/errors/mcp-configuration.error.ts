/**
 * Thrown at module init when a module option or a tool declaration is refused: the application does not start.
 * The message names where the offence is (the option, or the tool and action) and what is wrong with it.
 * @publicApi
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
