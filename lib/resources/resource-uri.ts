/** A scheme (RFC 3986 §3.1) and the colon ending it. */
export const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
/** The characters a URI may hold outside percent-encodings (RFC 3986 §2.2–2.3: unreserved and reserved). */
const URI_CHARS = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;

/**
 * What is wrong with `uri` as an absolute URI (RFC 3986 §4.3: a scheme, no relative reference), in a sentence
 * fragment, or undefined when nothing is: only ASCII URI characters and whole percent-encodings, at most one
 * `#`, and brackets only around an IP literal host.
 */
export function absoluteUriProblem(uri: string): string | undefined {
  if (!SCHEME.test(uri)) return 'must be an absolute URI, starting with a scheme such as "file:" or "app:" (RFC 3986)';
  if (!URI_CHARS.test(uri)) return 'holds a character a URI cannot (space, quote, <, >, \\, ^, `, {, |, }, non-ASCII, or a lone %; percent-encode it)';
  const fragment = uri.indexOf('#');
  if (fragment >= 0 && uri.indexOf('#', fragment + 1) >= 0) return 'holds more than one "#"';
  const bracket = uri.search(/[[\]]/);
  if (bracket >= 0) {
    const host = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[^/?#@]*@)?\[[0-9A-Fa-f:.vV]+\]/.exec(uri);
    if (!host || uri.slice(host[0].length).search(/[[\]]/) >= 0) return 'holds "[" or "]" outside an IP-literal host';
  }
  return undefined;
}
