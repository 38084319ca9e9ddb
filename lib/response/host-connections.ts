import type { EventEmitter } from 'node:events';
import type { Http2Session } from 'node:http2';
import type { Socket } from 'node:net';

/**
 * The response of the request an HTTP/1.x connection carries: Node keeps it as the connection's `_httpMessage` while
 * the request runs (its own `closeIdleConnections` reads it) and sets it to null after; undefined on a connection that
 * never carried one.
 */
const carried = (connection: Socket): unknown => (connection as { _httpMessage?: unknown })._httpMessage;

/** Destroys an HTTP/1.x connection carrying no request now: one its client sent nothing or part of a request's headers on, or idle. */
function cutIfIdle(connection: Socket): void {
  if (!carried(connection)) connection.destroy();
}

/** Destroys an HTTP/1.x connection that never carried a request. */
function cutIfUnused(connection: Socket): void {
  if (carried(connection) === undefined) connection.destroy();
}

/**
 * Destroys the connection of an HTTP/2 session closed during shutdown once the session's streams have ended: its client
 * may never close its side. A session closing gracefully ends its side of the connection once its streams have ended, but emits
 * 'close' only once the client has ended its side too, so the connection is cut as its own side ends ('finish').
 */
function cutOnceEnded(connection: Socket, session: Http2Session): void {
  if (session.destroyed) connection.destroy();
  else connection.once('finish', () => connection.destroy());
}

/**
 * The host connections: the host server's HTTP/2 sessions and HTTP/1.x connections, as the shutdown closes what no
 * answer of the mount closes. Node's `server.close()` closes only the idle connections that served a request and stops
 * their header timeouts, and a graceful HTTP/2 close waits for the client to end the connection too, so a client that
 * sent nothing, part of a request's headers, or never reads an answer would hold it for ever.
 * Two moments drive it, each once: the end of the shutdown's wait (`closeSessions`) and the end of the delivery grace
 * (`deliveryOver`); what opens after either is treated `graceMs` after it opened.
 */
export class HostConnections {
  /**
   * The connections of the HTTP/2 sessions closed (GOAWAY) during shutdown, with their sessions, until they close: each
   * is cut, once the delivery grace is over, as soon as its session's streams, the host's too, have ended or been
   * cut.
   */
  private readonly closedSessionConnections = new Map<Socket, Http2Session>();
  /** The host server's HTTP/2 sessions still open. */
  private readonly sessions = new Set<Http2Session>();
  /** Whether the shutdown's wait is over and the sessions then open were closed. */
  private sessionsClosed = false;
  /** The host server's HTTP/1.x connections still open; over TLS, each its TLS socket once secured. */
  private readonly connections = new Set<Socket>();
  /** Whether the delivery grace is over. */
  private delivered = false;

  /** @param graceMs the delivery grace: how long after it opens (or is closed) a late session or connection is let be */
  constructor(private readonly graceMs: number) {}

  /**
   * Watches the host's `server`: its HTTP/2 sessions, and its HTTP/1.x and TLS connections (an HTTP/2 server's
   * connections are its sessions', over TLS once it negotiated HTTP/2).
   */
  watch(server: EventEmitter): void {
    server.on('session', (session: Http2Session) => {
      this.sessions.add(session);
      session.once('close', () => this.sessions.delete(session));
      if (this.sessionsClosed) this.later(() => this.closeSession(session));
    });
    const http2 = 'updateSettings' in server;
    const tls = 'setSecureContext' in server;
    const watch = (connection: Socket) => {
      this.connections.add(connection);
      connection.once('close', () => this.connections.delete(connection));
      if (this.delivered) this.later(() => this.connections.has(connection) && cutIfUnused(connection));
    };
    if (!http2 || tls) server.on('connection', watch);
    // Over TLS the HTTP parser reads the TLS socket, wrapped around the connection (its `_parent`).
    server.on('secureConnection', (secured: Socket & { _parent?: Socket; alpnProtocol?: string | false }) => {
      if (secured._parent) this.connections.delete(secured._parent);
      if (!(http2 && secured.alpnProtocol === 'h2')) watch(secured);
    });
  }

  /** Closes an HTTP/2 session gracefully (GOAWAY), keeping its connection to cut once the delivery grace is over. */
  closeSession(session: Http2Session | undefined): void {
    if (!session || session.closed || session.destroyed) return;
    // The session's socket is a proxy that routes `once` to the connection itself, which it returns (EventEmitter's
    // `once` returns its emitter): taken now, as the session lets go of it once its streams end.
    const connection: Socket = session.socket.once('close', () => this.closedSessionConnections.delete(connection));
    this.closedSessionConnections.set(connection, session);
    session.close();
    if (this.delivered) this.later(() => cutOnceEnded(connection, session));
  }

  /** The shutdown's wait is over: every session open is closed gracefully (idle ones too, as Node 24's `server.close()` does). */
  closeSessions(): void {
    this.sessionsClosed = true;
    for (const session of this.sessions) this.closeSession(session);
  }

  /**
   * The delivery grace is over: each HTTP/1.x connection carrying no request is cut, and so is each connection of a
   * session closed here once that session's streams have ended. A connection opened later that carried no request by
   * `graceMs` after it opened is cut then (one that did is left to the server's close).
   */
  deliveryOver(): void {
    this.delivered = true;
    for (const [connection, session] of this.closedSessionConnections) cutOnceEnded(connection, session);
    for (const connection of this.connections) cutIfIdle(connection);
  }

  private later(act: () => void): void {
    setTimeout(act, this.graceMs).unref();
  }
}
