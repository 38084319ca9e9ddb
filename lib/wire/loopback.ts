/** Loopback detection for DNS-rebinding protection: socket addresses, Host header values and origins. */

/** Whether a socket address (`req.socket.localAddress`) is a loopback address. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d{1,5})?$/i;

/** Whether a Host header value names a loopback host (any port). */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOST.test(host);
}

/** Whether an Origin header value is an http(s) origin on a loopback host (any port). */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHost(url.host);
  } catch {
    return false;
  }
}
