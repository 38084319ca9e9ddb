/**
 * The RFC 9728 well-known URL of a protected resource's metadata: the resource URL's origin, then
 * `/.well-known/oauth-protected-resource`, then the resource URL's path (RFC 9728 §3.1).
 */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/+$/, '');
  return `${url.origin}/.well-known/oauth-protected-resource${path}`;
}
