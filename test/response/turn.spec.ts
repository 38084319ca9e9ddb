import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';

import { describe, expect, it } from '@jest/globals';

import { TurnLost, turnOf } from '../../lib/response/turn.js';
import { collectGarbage } from '../support/collect-garbage.js';

/** A connection as Node's HTTP server keeps it, down to what a turn touches: its read brake and its parser. */
class Connection extends EventEmitter {
  closed = false;
  destroyed = false;
  _paused = false;
  private reading = true;
  parserResumes = 0;
  readonly parser = { resume: () => void this.parserResumes++ };
  pause(): void {
    this.reading = false;
  }
  resume(): void {
    this.reading = true;
  }
  isPaused(): boolean {
    return !this.reading;
  }
  /** Closes as Node does: destroyed, then `close`. */
  close(): void {
    this.closed = this.destroyed = true;
    this.emit('close');
  }
}

/** A request pipelined on `connection` and its response, which has no socket until its turn (`give`). */
function pipelined(connection: Connection): { req: IncomingMessage; res: ServerResponse; give(): void } {
  const res = new EventEmitter() as EventEmitter & { socket: unknown };
  res.socket = null;
  return {
    req: { socket: connection } as unknown as IncomingMessage,
    res: res as unknown as ServerResponse,
    give: () => ((res.socket = connection), res.emit('socket', connection)),
  };
}

describe('turnOf', () => {
  it('needs no wait for a response that has its connection', () => {
    const connection = new Connection();
    const request = pipelined(connection);
    request.give();
    expect(turnOf(request.req, request.res)).toBeUndefined();
    expect([connection._paused, connection.isPaused()]).toEqual([false, false]);
  });

  it('holds the read brake while any request waits, and lifts it whole once the last has its turn', async () => {
    const connection = new Connection();
    const requests = [pipelined(connection), pipelined(connection), pipelined(connection)];
    const turns = requests.map(({ req, res }) => turnOf(req, res)!);
    expect([connection._paused, connection.isPaused()]).toEqual([true, true]);
    requests[0]!.give();
    await turns[0];
    requests[1]!.give();
    await turns[1];
    expect([connection._paused, connection.isPaused(), connection.parserResumes]).toEqual([true, true, 0]);
    requests[2]!.give();
    await turns[2];
    expect([connection._paused, connection.isPaused(), connection.parserResumes]).toEqual([false, false, 1]);
  });

  it('drops every request still waiting when the connection closes (TurnLost), with one close listener for them all', async () => {
    const connection = new Connection();
    const before = connection.listenerCount('close');
    const requests = [pipelined(connection), pipelined(connection), pipelined(connection)];
    const turns = requests.map(({ req, res }) => turnOf(req, res)!);
    expect(connection.listenerCount('close') - before).toBe(1);
    requests[0]!.give();
    await turns[0];
    connection.close();
    await expect(turns[1]).rejects.toBeInstanceOf(TurnLost);
    await expect(turns[2]).rejects.toBeInstanceOf(TurnLost);
  });

  it('drops a request at once whose connection closed before it asked', async () => {
    const connection = new Connection();
    connection.close();
    const request = pipelined(connection);
    await expect(turnOf(request.req, request.res)).rejects.toBeInstanceOf(TurnLost);
  });

  it('keeps nothing of a request that had its turn while its connection lives on', async () => {
    const connection = new Connection();
    /** A request that has its turn; only a weak reference to its response leaves. */
    const served = async (): Promise<WeakRef<ServerResponse>> => {
      const request = pipelined(connection);
      const turn = turnOf(request.req, request.res)!;
      request.give();
      await turn;
      return new WeakRef(request.res);
    };
    const kept = await served();
    await collectGarbage();
    expect(kept.deref()).toBeUndefined();
    expect(connection.closed).toBe(false);
  });
});
