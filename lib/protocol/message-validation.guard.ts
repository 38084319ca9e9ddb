import type { IncomingMessage } from 'node:http';

import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';

import { requestRecord } from '../contracts/request-record.js';
import { RejectionException } from '../errors/rejection.exception.js';
import { distilledData } from './json-rpc.js';
import { classifyMessage } from './message-classification.js';
import { MAX_NESTING_DEPTH, tooDeeplyNested } from './nesting.js';
import { ProtocolSchema } from './protocol-schema.js';

/**
 * Message validation, after the parse step: the message must conform to the vendored 2026-07-28 schema, else
 * 400 + -32600 with a distilled error. Also refused: a response (a client never sends one), nesting past
 * `MAX_NESTING_DEPTH`, and an integer id beyond ±(2^53−1), which the answer could not echo exactly.
 * @publicApi
 */
@Injectable()
export class MessageValidationGuard implements CanActivate {
  static readonly rejecter = 'message-validation' as const;

  constructor(private readonly schema: ProtocolSchema) {
    this.schema.validator('JSONRPCRequest');
    this.schema.validator('JSONRPCNotification');
  }

  canActivate(context: ExecutionContext): boolean {
    const record = requestRecord(context.switchToHttp().getRequest<IncomingMessage>());
    if (record.kind) return true;
    const message = record.message;
    if (!message) throw new Error('MessageValidationGuard runs after ParseStepGuard');
    const kind = classifyMessage(message);
    if (kind === 'response')
      throw new RejectionException(
        'message-validation',
        'client_response',
        'Invalid request: a client never sends a JSON-RPC response to a server; send a request or a notification.',
      );
    const deep = tooDeeplyNested(message);
    if (deep)
      throw new RejectionException('message-validation', 'invalid_message', `Invalid request: the message nests objects and arrays deeper than ${MAX_NESTING_DEPTH} levels.`, {
        data: distilledData([{ path: deep, problem: `is nested deeper than ${MAX_NESTING_DEPTH} levels` }]),
      });
    const problems = this.schema.check(kind === 'notification' ? 'JSONRPCNotification' : 'JSONRPCRequest', message);
    if (problems.length)
      throw new RejectionException('message-validation', 'invalid_message', 'Invalid request: the message is not a valid JSON-RPC 2.0 request or notification.', {
        data: distilledData(problems),
      });
    if (kind === 'request' && record.id === undefined)
      throw new RejectionException(
        'message-validation',
        'invalid_message',
        'Invalid request: the id is an integer beyond ±(2^53−1), which this server cannot echo exactly; send a string or a smaller integer.',
        { data: distilledData([{ path: ['id'], problem: 'must be a string or an integer within ±(2^53−1)' }]) },
      );
    record.kind = kind;
    return true;
  }
}
