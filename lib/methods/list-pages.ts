import { Inject, Injectable } from '@nestjs/common';

import { RequestStateCodec, sealString } from '../contracts/request-state-codec.js';
import { JSON_RPC_CODES } from '../errors/json-rpc-codes.js';
import { McpMethodError } from '../errors/mcp-method.error.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import { sharedResult, type McpResult } from '../protocol/json-rpc.js';
import { isPlainObject } from '../util/is-plain-object.js';

/** One page of a list result: the items, and the cursor of the next page when more remain. */
export interface ListPage<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string;
}

/** The longest cursor opened; a longer one is refused unread. */
const CURSOR_MAX_CHARS = 4096;

/**
 * Pagination of the list methods: pages of `pageSize` items in the list's stable order, each but the last naming
 * the next by an opaque cursor. A cursor is sealed by the requestState codec (so any instance sharing its keys
 * can continue a listing) and bound to the mount and the list method; one that is malformed, altered, or another
 * list's is refused with 400 + -32602 (`data.reason: "invalid_cursor"`). A cursor past the end of a list that
 * shrank gives an empty last page.
 */
@Injectable()
export class ListPages {
  /**
   * Each list's first page, a shared result (a list's items are read once, after module init), by its list's name;
   * for a list gathered afresh, by its name and whether more items follow ({@link firstPageKey}).
   */
  private readonly firstPages = new Map<string, McpResult>();
  /** {@link keepsFirstCursor}, read on first use: a codec the host provides is not constructed before then. */
  private firstCursorKept: boolean | undefined;
  /** Each list's first-page cursor, once sealed, when it can be kept: a list paged afresh on every request seals it once. */
  private readonly firstCursors = new Map<string, string>();

  constructor(
    @Inject(RequestStateCodec) private readonly codec: RequestStateCodec,
    @Inject(MCP_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}

  /**
   * A list method's complete result: the page of `items` that `cursor` names, under `member`, with its `nextCursor`.
   * The first page is made once (a shared result) unless it has a cursor and the codec is not `deterministic`, or
   * the items are `fresh` (gathered for this request) and the page holds any of those after the first `readOnce`
   * (the items read once, after module init): a first page of read-once items alone is the same page on every
   * request, but for whether more items follow, so it is made once for each case.
   */
  async result(list: string, member: string, items: readonly unknown[], cursor: unknown, { fresh = false, readOnce = items.length } = {}): Promise<McpResult> {
    const key = cursor === undefined ? this.firstPageKey(list, items.length, fresh, readOnce) : undefined;
    const first = key === undefined ? undefined : this.firstPages.get(key);
    if (first) return first;
    const page = await this.page(list, items, cursor);
    const result: McpResult = { resultType: 'complete', [member]: page.items, ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }) };
    if (key !== undefined && (page.nextCursor === undefined || this.keepsFirstCursor())) this.firstPages.set(key, sharedResult(result));
    return result;
  }

  /**
   * Under what a list's first page is kept: the list's name; for a list gathered afresh whose first page holds
   * read-once items alone, its name and whether more items follow (all that changes from request to request); none
   * when the first page holds gathered items. A list's name holds no line break.
   */
  private firstPageKey(list: string, length: number, fresh: boolean, readOnce: number): string | undefined {
    if (!fresh) return list;
    return readOnce >= this.options.pageSize ? `${list}\n${length > this.options.pageSize ? 'more' : 'all'}` : undefined;
  }

  /** The page of `items` (in their stable order) that `cursor` names; the first when there is no cursor. */
  private async page<T>(list: string, items: readonly T[], cursor: unknown): Promise<ListPage<T>> {
    const from = cursor === undefined ? 0 : await this.offset(list, cursor);
    const to = from + this.options.pageSize;
    if (to >= items.length) return { items: from === 0 ? items : items.slice(from) };
    const kept = from === 0 ? this.firstCursors.get(list) : undefined;
    return { items: items.slice(from, to), nextCursor: kept ?? (await this.sealCursor(list, from, to)) };
  }

  /** The cursor of the page at `to`, sealed; the first page's kept when the codec is `deterministic`. */
  private async sealCursor(list: string, from: number, to: number): Promise<string> {
    const nextCursor = await sealString(this.codec, JSON.stringify({ k: 'cursor', m: this.options.path, l: list, o: to }));
    // A fault, not a page: a cursor longer than one is opened would be refused as not this server's.
    if (nextCursor.length > CURSOR_MAX_CHARS)
      throw new TypeError(`the requestState codec sealed a list cursor to ${nextCursor.length} characters, over the ${CURSOR_MAX_CHARS} a cursor may have`);
    if (from === 0 && this.keepsFirstCursor()) this.firstCursors.set(list, nextCursor);
    return nextCursor;
  }

  /** Whether a first page's cursor can be kept: the codec seals a payload to the same string every time. */
  private keepsFirstCursor(): boolean {
    return (this.firstCursorKept ??= this.codec.deterministic === true);
  }

  private async offset(list: string, cursor: unknown): Promise<number> {
    const opened = typeof cursor === 'string' && cursor.length <= CURSOR_MAX_CHARS ? await this.codec.open(cursor) : undefined;
    let payload: unknown;
    try {
      payload = opened?.ok ? JSON.parse(opened.payload) : undefined;
    } catch {
      payload = undefined;
    }
    if (
      isPlainObject(payload) &&
      payload.k === 'cursor' &&
      payload.m === this.options.path &&
      payload.l === list &&
      Number.isSafeInteger(payload.o) &&
      (payload.o as number) > 0
    )
      return payload.o as number;
    throw new McpMethodError(
      JSON_RPC_CODES.invalidParams,
      `Invalid params: cursor is not one this server issued for ${list}; list again without a cursor.`,
      { reason: 'invalid_cursor' },
      400,
    );
  }
}
