import type { IncomingMessage } from 'node:http';

import { Injectable, type ExecutionContext } from '@nestjs/common';

import { passOn, type ChainStage } from '../contracts/chain-stage.js';
import type { McpRequestRecord } from '../contracts/request-record.js';
import { RejectionException } from '../errors/rejection.exception.js';
import { numbersOutOfRange } from '../validation/finite-numbers.js';
import { distilledData, firstProblem } from './distilled-error.js';
import { EXACT_ECHO } from './echoed-values.js';
import { LegacyProtocolSchema } from './legacy-schema.js';
import { classifyMessage } from './message-classification.js';
import { MAX_NESTING_DEPTH, tooDeeplyNested, valuesWithin } from './nesting.js';
import { ProtocolSchema } from './protocol-schema.js';

/**
 * Message validation, after era classification: the message must conform to its era's schema, else 400 + -32600
 * with a distilled error. Also refused: nesting past `MAX_NESTING_DEPTH`, an integer id beyond ±(2^53−1), which
 * the answer could not echo exactly, a number out of range (`1e400`) in a notification or response, and, on the
 * modern era, a response (a modern client never sends one; a legacy client answers the server's input requests
 * with one).
 * @publicApi
 */
@Injectable()
export class MessageValidationGuard implements ChainStage {
  static readonly rejecter = 'message-validation' as const;

  constructor(
    private readonly schema: ProtocolSchema,
    private readonly legacy: LegacyProtocolSchema,
  ) {
    for (const definition of ['JSONRPCRequest', 'JSONRPCNotification']) schema.validator(definition);
    for (const definition of ['JSONRPCRequest', 'JSONRPCNotification', 'JSONRPCResultResponse', 'JSONRPCErrorResponse']) legacy.validator(definition);
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    return passOn(this, context);
  }

  pass(_req: IncomingMessage, record: McpRequestRecord): boolean {
    if (record.kind) return true;
    const message = record.message;
    if (!message) throw new Error('MessageValidationGuard runs after ParseStepGuard');
    const kind = classifyMessage(message);
    const modern = record.era !== 'legacy';
    if (kind === 'response' && modern)
      throw new RejectionException(
        'message-validation',
        'client_response',
        'Invalid request: a client never sends a JSON-RPC response to a server; send a request or a notification.',
      );
    const answerKey = kind === 'request' || kind === 'notification' ? ANSWER_KEYS.find((key) => key in message) : undefined;
    if (answerKey)
      throw new RejectionException(
        'message-validation',
        'invalid_message',
        `Invalid request: the message has both "method" and "${answerKey}", so it reads as a request and as an answer; send a request (method, params) or an answer (${ANSWER_KEYS.join(' or ')}), not both.`,
        { data: distilledData([{ path: [answerKey], problem: 'must not sit beside "method"' }]) },
      );
    const values = valuesWithin(message);
    if (values === undefined) {
      const deep = tooDeeplyNested(message)!;
      throw new RejectionException('message-validation', 'invalid_message', `Invalid request: the message nests objects and arrays deeper than ${MAX_NESTING_DEPTH} levels.`, {
        data: distilledData([{ path: deep, problem: `is nested deeper than ${MAX_NESTING_DEPTH} levels` }]),
      });
    }
    record.values = values;
    // A modern request carries params (its _meta, whatever its method): a null sent for them is not one to leave out.
    const problems = modern
      ? kind === 'notification'
        ? this.schema.check('JSONRPCNotification', message)
        : this.schema.check('JSONRPCRequest', message, ['params'])
      : this.legacy.check(legacyDefinition(kind, message), message);
    if (problems.length) {
      const data = distilledData(problems);
      throw new RejectionException(
        'message-validation',
        'invalid_message',
        `Invalid request: the message is not a valid JSON-RPC 2.0 ${modern ? 'request or notification' : 'message'}${firstProblem(data)}.`,
        { data },
      );
    }
    // A request's numbers are its method's params, checked by method routing (a tool's arguments by its value gate).
    const outOfRange = kind === 'request' ? [] : numbersOutOfRange(message, { inRange: record.numbersInRange }).problems;
    if (outOfRange.length) {
      const data = distilledData(outOfRange);
      throw new RejectionException('message-validation', 'invalid_message', `Invalid request: the message holds a number out of range${firstProblem(data)}.`, { data });
    }
    if (kind !== 'notification' && record.id === undefined)
      throw new RejectionException(
        'message-validation',
        'invalid_message',
        'Invalid request: the id is an integer beyond ±(2^53−1), which this server cannot echo exactly; send a string or a smaller integer.',
        { data: distilledData([{ path: ['id'], problem: EXACT_ECHO }]) },
      );
    record.kind = kind;
    return true;
  }
}

/**
 * The keys of an answer (a JSON-RPC response). A message with a method and one of them reads as two kinds, and an
 * intermediary that classifies by these keys first would pass as an answer what this server runs as a request.
 */
const ANSWER_KEYS = ['result', 'error'] as const;

/** The legacy schema's JSON-RPC definition a message of this kind must meet. */
function legacyDefinition(kind: string, message: Record<string, unknown>): string {
  if (kind === 'notification') return 'JSONRPCNotification';
  if (kind === 'response') return 'result' in message ? 'JSONRPCResultResponse' : 'JSONRPCErrorResponse';
  return 'JSONRPCRequest';
}
