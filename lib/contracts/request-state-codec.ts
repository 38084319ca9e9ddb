/** What opening a sealed `requestState` gives: the payload it carries, or why it cannot be trusted. @publicApi */
export type RequestStateOpened =
  | { readonly ok: true; readonly payload: string }
  | { readonly ok: false; readonly problem: 'malformed' | 'tampered' };

/**
 * The requestState codec: makes the payload of a multi round-trip request's `requestState` tamper-evident, so
 * any instance can trust what a client echoes without holding a session. The library decides what the payload
 * holds (expiry, request binding, answers, tool state) and checks it once opened; the codec only guarantees that
 * an opened payload is one it sealed. The default is `HmacRequestStateCodec`; supply your own (a KMS-backed
 * seal, an encrypting one) through the `requestState.codec` module option. Its token has the interface's name.
 * @publicApi
 */
export interface RequestStateCodec {
  /** Seals a payload (JSON text) into the string the client echoes on its retry. */
  seal(payload: string): string | Promise<string>;
  /**
   * Opens a string a client echoed: the payload when this codec sealed it unaltered; `tampered` when it is well
   * formed but was not (altered, or sealed under another key); `malformed` when it is not in the codec's format.
   */
  open(sealed: string): RequestStateOpened | Promise<RequestStateOpened>;
}

/** Injection token of the requestState codec. @publicApi */
export const RequestStateCodec = Symbol.for('nest-mcp.RequestStateCodec');
