/**
 * Loopback detection for the origin check. Only canonical spellings count (`localhost`, `127.x.y.z` with octets
 * 0–255, `[::1]`, any port); other spellings of the same address are not loopback.
 */

/** Whether a socket address (`req.socket.localAddress`: where the request arrived) is a loopback address. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || IPV4_LOOPBACK.test(address) || IPV4_LOOPBACK.test(address.replace(/^::ffff:/i, ''));
}

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4_LOOPBACK = new RegExp(`^127(?:\\.${OCTET}){3}$`);
const LOOPBACK_HOST = new RegExp(`^(?:localhost|127(?:\\.${OCTET}){3}|\\[::1\\])(?::\\d{1,5})?$`, 'i');

/** Whether a `Host` header value names a loopback host (any port). */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOST.test(host);
}

/** Whether an `Origin` header value is an http(s) origin on a loopback host (any port); `null` is not. */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === origin && isLoopbackHost(url.host);
  } catch {
    return false;
  }
}
