import type { IncomingMessage } from 'node:http';

import { Inject, Injectable, Logger, type ExecutionContext } from '@nestjs/common';

import { passOn, type ChainStage } from '../contracts/chain-stage.js';
import { readableId, type McpRequestRecord, headerLines } from '../contracts/request-record.js';
import { ShutdownDeadline } from '../contracts/shutdown-deadline.js';
import { RejectionException } from '../errors/rejection.exception.js';
import { shuttingDown } from '../errors/shutting-down.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import { quoted } from '../util/bounded.js';
import { http2StreamOf } from '../util/node-http.js';
import { holdsNonFiniteNumber } from '../validation/finite-numbers.js';
import { ArrivingBodies } from './arriving-bodies.js';
import { decodeText, parseJson, type BodyDecodeError } from './decode-body.js';
import { BodyReadError, bodyWithin, boundedBytes, type BodyReadFailure } from './read-body.js';

type HostRequest = IncomingMessage & { body?: unknown; rawBody?: unknown; _body?: unknown };

/** The 408's message for each way a read ends without its body, but a bound (those are 413s). */
const READ_FAILURE_MESSAGES: Record<Exclude<BodyReadFailure, 'body_too_large' | 'too_many_values' | 'shutting_down'>, (options: McpResolvedOptions) => string> = {
  stalled_read: (o) => `Request timeout: no byte of the body arrived for ${o.bodyReadTimeoutMs} ms.`,
  past_deadline: (o) => `Request timeout: the body did not arrive in full within ${o.bodyReadDeadlineMs} ms.`,
  crowded_out: (o) =>
    `Request timeout: the server was reading more than ${o.maxArrivingBytes} bytes of bodies at once, and this body's last bytes had arrived least recently; send it again.`,
  aborted: () => 'Request aborted: the body ended before it was complete.',
};

const logger = new Logger('Mcp');

/** The warning, given once per mount, that a host parser the mount could not skip read a body before it. */
export const hostParsedWarning = (path: string): string =>
  `a body parser of the host read the body of a request to the mount "${path}" before the mount could: it is taken as the parser left it, ` +
  'so maxBodyBytes, maxBodyValues and the -32700 and 413 answers do not hold for it. The mount skips the parsers Nest registers and ' +
  'those given to app.use() as they come (express.json() and the like); one applied with MiddlewareConsumer, or wrapped in a function ' +
  'of your own, it cannot skip: apply it to your own routes only.';

/**
 * The parse step: turns the POST body into one JSON-RPC message object or rejects it (the rejection table's
 * `parse-step` rows). A repeated `Content-Type` fails closed, since which one describes the body is ambiguous; the
 * content type itself is enforced only under `requireJsonContentType` (else lenient, as the spec leaves it), before
 * the body is read. Reads the raw body under `maxBodyBytes`, `bodyReadTimeoutMs`, `bodyReadDeadlineMs` and
 * `maxArrivingBytes` (with the mount's other bodies), and refuses more than `maxBodyValues` JSON values before parsing;
 * a read the shutdown deadline ends is answered `shutting_down`. If the host consumed the body, parses `rawBody` under
 * the same ceiling, else takes `req.body` as the host parsed it.
 * @publicApi
 */
@Injectable()
export class ParseStepGuard implements ChainStage {
  static readonly rejecter = 'parse-step' as const;
  /** Whether the warning that a host parser read a body first is still to be given (once per mount). */
  private warnHostParsed = true;

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpResolvedOptions,
    @Inject(ArrivingBodies) private readonly arriving: ArrivingBodies,
    /** Ends a body read still under way at the shutdown deadline. */
    @Inject(ShutdownDeadline) private readonly shutdown: ShutdownDeadline,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    return passOn(this, context);
  }

  /** The step; synchronous when the body is already at hand (all of it arrived, or the host parsed it). */
  pass(nodeReq: IncomingMessage, record: McpRequestRecord, host: object): boolean | Promise<boolean> {
    if (record.message) return true;
    const req = nodeReq as HostRequest;
    const hostReq = host as HostRequest;
    const lines = headerLines(req);
    if (lines.repeated('content-type'))
      throw new RejectionException('parse-step', 'duplicate_content_type', 'Bad request: the Content-Type header is sent more than once; send it once.');
    if (this.options.requireJsonContentType && !isJsonMediaType(lines.value('content-type'))) throw unsupportedMediaType(lines.value('content-type'));
    const value = this.obtain(req, hostReq, record);
    return value instanceof Promise ? value.then((read) => this.accept(read, req, record, hostReq)) : this.accept(value, req, record, hostReq);
  }

  /** Takes the body's value as the request's message, or refuses it. */
  private accept(value: unknown, req: HostRequest, record: McpRequestRecord, hostReq: HostRequest): boolean {
    if (Array.isArray(value)) throw new RejectionException('parse-step', 'batch', 'Invalid request: a batch (JSON array) is not allowed; send one JSON-RPC message per POST.');
    if (typeof value !== 'object' || value === null)
      throw new RejectionException('parse-step', 'not_an_object', 'Invalid request: the body must be one JSON-RPC message object.');
    const message = value as Record<string, unknown>;
    record.message = message;
    record.id = readableId(message);
    if (typeof message.method === 'string') record.method = message.method;
    req.body = message;
    hostReq.body = message;
    return true;
  }

  /**
   * The body: read from the Node request (at once when all of it has arrived, else as it arrives), or, where a host
   * parser consumed it, its raw bytes or parsed value.
   */
  private obtain(req: HostRequest, hostReq: HostRequest, record: McpRequestRecord): unknown {
    let body: Buffer | Promise<Buffer>;
    try {
      if (Buffer.isBuffer(hostReq.rawBody)) body = boundedBytes(hostReq.rawBody, this.options);
      // Reset while an async auth provider decided: Node ends an HTTP/2 request so, as if a parser had read it.
      else if (http2StreamOf(req)?.closed) throw new BodyReadError('aborted');
      else if (hostReq._body === true || req.readableEnded) {
        if (this.warnHostParsed) {
          this.warnHostParsed = false;
          logger.warn(hostParsedWarning(this.options.path));
        }
        return hostReq.body;
      } else {
        // The mount reads only identity. A body a host middleware consumed (above) is taken as it left it: decoded
        // by a parser that inflates, or refused as invalid JSON if it kept compressed bytes.
        // Every line of it: codings sent on two lines are one list (RFC 9110 §5.3), which Node joins.
        const coding = req.headers['content-encoding'];
        if (coding !== undefined && !isIdentityCoding(coding)) throw unsupportedContentEncoding(coding);
        // Node undoes `chunked` only, and reads a body with other codings before it (`gzip, chunked`) as is.
        const transfer = req.headers['transfer-encoding'];
        if (transfer !== undefined && !isChunkedOnly(transfer)) throw unsupportedTransferEncoding(transfer);
        body = bodyWithin(req, this.options, this.arriving, this.shutdown);
      }
    } catch (thrown) {
      throw this.readFailure(thrown);
    }
    if (Buffer.isBuffer(body)) return this.parse(body, record);
    return body.then(
      (bytes) => this.parse(bytes, record),
      (thrown: unknown) => {
        throw this.readFailure(thrown);
      },
    );
  }

  /** The rejection for a failed body read (a `BodyReadError`); anything else as thrown. */
  private readFailure(thrown: unknown): unknown {
    if (!(thrown instanceof BodyReadError)) return thrown;
    if (thrown.failure === 'body_too_large') return this.tooLarge();
    if (thrown.failure === 'too_many_values') return this.tooManyValues();
    if (thrown.failure === 'shutting_down') return shuttingDown('a request whose body had not arrived in full by the shutdown deadline (shutdownGraceMs) is not run');
    return new RejectionException('parse-step', 'stalled_read', READ_FAILURE_MESSAGES[thrown.failure](this.options), { headers: { connection: 'close' } });
  }

  /** Parses a body its bounds were checked on, and notes whether every number it holds is in range (the cheap walk, once). */
  private parse(bytes: Buffer, record: McpRequestRecord): unknown {
    record.bodyBytes = bytes.length;
    try {
      const text = decodeText(bytes);
      // A character past ASCII, or an escape that may spell one (`\u20ac`, all ASCII as it arrives).
      if (text.length !== bytes.length || text.includes('\\u')) record.bodyUnits = text.length;
      const value = parseJson(text);
      if (!holdsNonFiniteNumber(value)) record.numbersInRange = true;
      return value;
    } catch (thrown) {
      const what = (thrown as BodyDecodeError).failure === 'utf8' ? 'UTF-8' : 'JSON';
      throw new RejectionException('parse-step', 'invalid_json', `Parse error: the body is not valid ${what}.`);
    }
  }

  /** Parsing costs by the number of values, not bytes: a body of many small values is refused before it is parsed. */
  private tooManyValues(): RejectionException {
    return new RejectionException('parse-step', 'too_many_values', `Payload too large: the body holds more than ${this.options.maxBodyValues} JSON values.`, {
      headers: { connection: 'close' },
    });
  }

  private tooLarge(): RejectionException {
    return new RejectionException('parse-step', 'body_too_large', `Payload too large: the body exceeds the ${this.options.maxBodyBytes}-byte limit.`, {
      headers: { connection: 'close' },
    });
  }
}

/** Whether a `Content-Type` value names `application/json`: type and subtype compared without case, parameters (`charset`) allowed. */
function isJsonMediaType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const end = value.indexOf(';');
  return (end === -1 ? value : value.slice(0, end)).trim().toLowerCase() === 'application/json';
}

/** Whether a `Transfer-Encoding` (its lines joined) names no coding but `chunked`. */
function isChunkedOnly(value: string): boolean {
  return value.split(',').every((coding) => coding.trim().toLowerCase() === 'chunked');
}

/** The 501 for a transfer coding the mount does not undo (RFC 9112 §6.1); the connection closes, the body unread. */
function unsupportedTransferEncoding(given: string): RejectionException {
  return new RejectionException(
    'parse-step',
    'unsupported_transfer_encoding',
    `Not implemented: this server reads request bodies with no transfer coding but chunked; send the body without the others (got ${quoted(given, 100)}).`,
    { headers: { connection: 'close' } },
  );
}

/** Whether a `Content-Encoding` value names no coding but `identity` (RFC 9110 §8.4: a list of codings, in order). */
function isIdentityCoding(value: string): boolean {
  return value.split(',').every((coding) => ['', 'identity'].includes(coding.trim().toLowerCase()));
}

/** The 415 of a compressed body: names the coding read and the one accepted, and closes the connection (the body stays unread). */
function unsupportedContentEncoding(given: string): RejectionException {
  return new RejectionException(
    'parse-step',
    'unsupported_content_encoding',
    `Unsupported media type: this server reads bodies without a content coding; send the body uncompressed, without Content-Encoding (got ${quoted(given, 100)}).`,
    { headers: { 'accept-encoding': 'identity', connection: 'close' } },
  );
}

/** The 415 of `requireJsonContentType`: names the one media type read, and closes the connection (the body stays unread). */
function unsupportedMediaType(given: string | undefined): RejectionException {
  return new RejectionException(
    'parse-step',
    'unsupported_media_type',
    `Unsupported media type: send the body with Content-Type: application/json (got ${given === undefined ? 'no Content-Type' : quoted(given, 100)}).`,
    { headers: { accept: 'application/json', connection: 'close' } },
  );
}
