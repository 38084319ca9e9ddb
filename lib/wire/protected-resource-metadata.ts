/** The RFC 9728 well-known URI suffix for protected-resource metadata. */
const PROTECTED_RESOURCE_WELL_KNOWN = '/.well-known/oauth-protected-resource';

/**
 * The RFC 9728 §3.1 metadata URL of a resource (the suffix inserted between host and path, a trailing `/` dropped),
 * named in `resource_metadata`; it matches the served path only when `resource` is the mount's public URL.
 */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${PROTECTED_RESOURCE_WELL_KNOWN}${path}${url.search}`;
}
