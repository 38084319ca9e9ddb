import type { LoggerService } from '@nestjs/common';

/** A Nest logger that keeps every line it is given in `lines`, as `<level> <params joined by newlines>`. */
export function capturingLogger(lines: string[]): LoggerService {
  const keep =
    (level: string) =>
    (...params: unknown[]) =>
      lines.push(`${level} ${params.map(String).join('\n')}`);
  return { log: keep('log'), error: keep('error'), warn: keep('warn'), debug: keep('debug'), verbose: keep('verbose'), fatal: keep('fatal') };
}
