/** The RFC 9728 well-known URI suffix for protected-resource metadata. */
export const PROTECTED_RESOURCE_WELL_KNOWN = '/.well-known/oauth-protected-resource';

/**
 * The RFC 9728 well-known URL of a protected resource's metadata (§3.1): the well-known suffix inserted between
 * the resource URL's host and its path (a terminating `/` removed) and query. For the resource
 * `https://api.example.com/mcp` that is `https://api.example.com/.well-known/oauth-protected-resource/mcp`.
 * The auth check names it in `resource_metadata`; the mount serves the metadata at
 * `/.well-known/oauth-protected-resource/<mount path>`, so the two agree when `resource` is the mount's public URL.
 */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${PROTECTED_RESOURCE_WELL_KNOWN}${path}${url.search}`;
}
