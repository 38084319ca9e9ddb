import type { Type } from '@nestjs/common';

/**
 * A fresh class named `name` with every handler a decorated provider calls (a tool's `run`, a resource's `read`, a
 * prompt's `get`), so one class can carry any of the decorators.
 */
export function everyHandlerClass(name: string): Type {
  const declared = class {
    run() {
      return 'x';
    }
    read() {
      return 'x';
    }
    get() {
      return 'x';
    }
  };
  Object.defineProperty(declared, 'name', { value: name });
  return declared;
}
