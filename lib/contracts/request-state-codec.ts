/** What opening a sealed `requestState` gives: the payload it carries, or why it cannot be trusted. @publicApi */
export type RequestStateOpened = { readonly ok: true; readonly payload: string } | { readonly ok: false; readonly problem: 'malformed' | 'tampered' };

/**
 * Makes the payload of `requestState` tamper-evident: the library owns and checks the payload, the codec only
 * guarantees an opened payload is one it sealed. Default `HmacRequestStateCodec`; see docs/mrtr.md.
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
  /**
   * Whether `seal` gives the same string for the same payload every time (the default codec's does). A list's
   * first page, its cursor included, is then built once and kept; otherwise it is built on every request.
   * @default false
   */
  readonly deterministic?: boolean;
}

/**
 * Seals `payload` with `codec`, refusing what no client could echo: a seal that is not a string is the codec's fault
 * (a `TypeError`), never a cursor or state handed out. Every seal the library makes goes through here; each use
 * bounds the length itself.
 */
export async function sealString(codec: RequestStateCodec, payload: string): Promise<string> {
  const sealed: unknown = await codec.seal(payload);
  if (typeof sealed !== 'string') throw new TypeError('the requestState codec sealed to something that is not a string');
  return sealed;
}

/** Injection token of the requestState codec, named like the interface so `@Inject(RequestStateCodec) codec: RequestStateCodec` reads as one. @publicApi */
export const RequestStateCodec = Symbol.for('nest-mcp.RequestStateCodec');
