/**
 * Loopback detection for the origin check. Only canonical spellings count (`localhost`, `127.x.y.z` with octets
 * 0–255, `[::1]`, any port); other spellings of the same address are not loopback.
 */

/**
 * A pure string test with its last input and answer kept: every request asks about its local address and its
 * `Host`, and a server sees few of either, so most asks repeat the one before.
 */
function lastAnswerKept(test: (value: string) => boolean): (value: string) => boolean {
  let last: string | undefined;
  let answer = false;
  return (value) => {
    if (value !== last) {
      answer = test(value);
      last = value;
    }
    return answer;
  };
}

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4_LOOPBACK = new RegExp(`^127(?:\\.${OCTET}){3}$`);
const LOOPBACK_HOST = new RegExp(`^(?:localhost|127(?:\\.${OCTET}){3}|\\[::1\\])(?::\\d{1,5})?$`, 'i');

const loopbackAddress = lastAnswerKept((address) => address === '::1' || IPV4_LOOPBACK.test(address) || IPV4_LOOPBACK.test(address.replace(/^::ffff:/i, '')));

/** Whether a socket address (`req.socket.localAddress`: where the request arrived) is a loopback address. */
export function isLoopbackAddress(address: string | undefined): boolean {
  return address ? loopbackAddress(address) : false;
}

/** Whether a `Host` header value names a loopback host (any port). */
export const isLoopbackHost: (host: string) => boolean = lastAnswerKept((host) => LOOPBACK_HOST.test(host));

/** Whether an `Origin` header value is an http(s) origin on a loopback host (any port); `null` is not. */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === origin && isLoopbackHost(url.host);
  } catch {
    return false;
  }
}
