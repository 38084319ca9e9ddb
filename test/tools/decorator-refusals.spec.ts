import { describe, expect, it } from '@jest/globals';

import { McpAction, McpConfigurationError, McpTool } from '../../lib/index.js';

/** A valid action schema: the cases break where it is written, never what it says. */
const SCHEMA = { description: 'Count the tasks', properties: {} };

/** Runs `define` (a class definition, whose decorators run as it is evaluated) and returns what it threw. */
function thrownBy(define: () => unknown): unknown {
  try {
    define();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('@McpAction refuses, as the class is defined, a member that is not an instance method', () => {
  // What TypeScript passes a method decorator: a static member's target is the constructor, an accessor's
  // descriptor has get/set and no value, and a property (an arrow function, say) gets no descriptor at all.
  const refusal = (member: string) => new RegExp(`^class TasksTool, member "count": @McpAction decorates an instance method; count is ${member.replace(/[()]/g, '\\$&')}$`);
  const MISPLACED: [string, () => unknown, RegExp][] = [
    [
      'a static method',
      () => {
        class TasksTool {
          @McpAction(SCHEMA)
          static count() {
            return 0;
          }
        }
        return TasksTool;
      },
      refusal('a static method'),
    ],
    [
      'a getter',
      () => {
        class TasksTool {
          @McpAction(SCHEMA)
          get count() {
            return 0;
          }
        }
        return TasksTool;
      },
      refusal('a getter'),
    ],
    [
      'a setter',
      () => {
        class TasksTool {
          @McpAction(SCHEMA)
          set count(_value: number) {}
        }
        return TasksTool;
      },
      refusal('a setter'),
    ],
    [
      'a static getter',
      () => {
        class TasksTool {
          @McpAction(SCHEMA)
          static get count() {
            return 0;
          }
        }
        return TasksTool;
      },
      refusal('a static getter'),
    ],
    [
      'an accessor (a getter and a setter)',
      () => {
        class TasksTool {
          @McpAction(SCHEMA)
          get count() {
            return 0;
          }
          set count(_value: number) {}
        }
        return TasksTool;
      },
      refusal('an accessor'),
    ],
    [
      'a member whose descriptor holds a value that is no function',
      () => {
        class TasksTool {}
        McpAction(SCHEMA)(TasksTool.prototype, 'count', { value: 42, writable: true, enumerable: false, configurable: true });
        return TasksTool;
      },
      refusal('a property (an arrow function is one: write a method)'),
    ],
    [
      'a getter on a target with no constructor, its owner named anonymous',
      () => McpAction(SCHEMA)(Object.create(null) as object, 'count', { get: () => 0, enumerable: false, configurable: true }),
      /^class anonymous, member "count": @McpAction decorates an instance method; count is a getter$/,
    ],
    [
      'a property holding an arrow function',
      () => {
        class TasksTool {
          // @ts-expect-error a property decorator is called without a descriptor, which a method decorator's type requires
          @McpAction(SCHEMA)
          count = () => 0;
        }
        return TasksTool;
      },
      refusal('a property (an arrow function is one: write a method)'),
    ],
  ];

  it.each(MISPLACED)('refuses %s with a McpConfigurationError naming the class and the member', (_member, define, message) => {
    const thrown = thrownBy(define);
    expect(thrown).toBeInstanceOf(McpConfigurationError);
    expect((thrown as Error).message).toMatch(message);
  });
});

describe('@McpTool refuses a second @McpTool on one class', () => {
  it('refuses it as the class is defined, naming the class and both tools; a subclass of a tool may have its own', () => {
    const thrown = thrownBy(() => {
      @McpTool({ name: 'search', description: 'Search' })
      @McpTool({ name: 'find', description: 'Find' })
      class SearchTool {}
      return SearchTool;
    });
    expect(thrown).toBeInstanceOf(McpConfigurationError);
    expect((thrown as Error).message).toBe('class SearchTool: @McpTool is applied twice (tools "find" and "search"); a class is one tool: remove one');

    @McpTool({ name: 'search', description: 'Search' })
    class SearchTool {}
    expect(thrownBy(() => McpTool({ name: 'deep_search', description: 'Search deeper' })(class DeepSearchTool extends SearchTool {}))).toBeUndefined();
  });
});
