import type { IncomingMessage } from 'node:http';

import { ForbiddenException, Injectable } from '@nestjs/common';

import { McpAuthDecision, McpTool, type McpAuth } from '../../lib/index.js';

/** A plain tool that echoes its text. */
@McpTool({
  name: 'echo',
  description: 'Echoes the text back.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
})
export class EchoTool {
  run(args: { text: string }): string {
    return args.text;
  }
}

/**
 * A test auth provider driven by the `x-test-auth` header: `deny` refuses (401), `scope` refuses for
 * insufficient scope (403), `forbid` throws Nest's ForbiddenException (403), `throw` faults; anything else lets the
 * request through as subject `tester`.
 */
@Injectable()
export class HeaderDrivenAuth implements McpAuth {
  authenticate(req: IncomingMessage): McpAuthDecision {
    switch (req.headers['x-test-auth']) {
      case 'deny':
        return McpAuthDecision.deny({ error: 'invalid_token', description: 'token expired' });
      case 'scope':
        return McpAuthDecision.insufficientScope('tasks:write');
      case 'forbid':
        throw new ForbiddenException('account suspended');
      case 'throw':
        throw new Error('auth backend down');
      default:
        return McpAuthDecision.allow({ subject: 'tester', scopes: ['tasks:read'] });
    }
  }
}
