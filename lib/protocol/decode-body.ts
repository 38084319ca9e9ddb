// A body's bytes decoded: strict UTF-8, then JSON.

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Why a body's bytes are no JSON value. */
export class BodyDecodeError extends Error {
  override readonly name = 'BodyDecodeError';
  constructor(readonly failure: 'utf8' | 'json') {
    super(failure);
  }
}

/** A body's bytes as the JSON value they hold: strict UTF-8, then JSON; a {@link BodyDecodeError} otherwise. */
export function decodeJson(bytes: Buffer): unknown {
  return parseJson(decodeText(bytes));
}

/** A body's bytes as text, strict UTF-8; a {@link BodyDecodeError} otherwise. */
export function decodeText(bytes: Buffer): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new BodyDecodeError('utf8');
  }
}

/** A body's text as the JSON value it holds; a {@link BodyDecodeError} otherwise. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new BodyDecodeError('json');
  }
}
