import { HttpException } from '@nestjs/common';

import { rejectionRow, type Rejecter, type RejectionReason } from './rejection-table.js';

/** The rejection mark: which rejecter refused a message and why. @publicApi */
export interface RejectionMark {
  readonly rejecter: Rejecter;
  readonly reason: RejectionReason;
}

/** Optional parts of a rejection beyond its mark and message. */
export interface RejectionDetails {
  /** JSON-RPC `error.data`. */
  readonly data?: unknown;
  /** Extra response headers (for example `WWW-Authenticate`). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A rejection: thrown by a rejecter (a guard or POST-chain stage) with its mark and a one-sentence message; status
 * and code come from `REJECTION_TABLE`, and `McpExceptionFilter` sends it as a JSON-RPC error.
 * @publicApi
 */
export class RejectionException<R extends Rejecter = Rejecter> extends HttpException {
  override readonly name = 'RejectionException';
  readonly mark: RejectionMark;
  readonly code: number;
  /** The status on the legacy era (the table's `legacyStatus`, else its `status`). */
  readonly legacyStatus: number;
  readonly data: unknown;
  readonly headers: Readonly<Record<string, string>>;

  constructor(rejecter: R, reason: RejectionReason<R>, message: string, details: RejectionDetails = {}) {
    const row = rejectionRow(rejecter, reason);
    super(message, row.status);
    this.mark = { rejecter, reason };
    this.code = row.code;
    this.legacyStatus = 'legacyStatus' in row ? row.legacyStatus : row.status;
    this.data = details.data;
    this.headers = details.headers ?? {};
  }
}

/** Tells a rejection apart without `instanceof` (which breaks across duplicated package copies). @publicApi */
export function isRejection(value: unknown): value is RejectionException {
  return typeof value === 'object' && value !== null && (value as { name?: unknown }).name === 'RejectionException' && typeof (value as { mark?: unknown }).mark === 'object';
}
