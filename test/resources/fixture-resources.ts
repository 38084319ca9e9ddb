import { McpResource, type McpResourceHandler } from '../../lib/index.js';

/** The smallest resource: text at `test://x`, for tests that need the resources capability and one readable URI. */
@McpResource({ uri: 'test://x', name: 'x', mimeType: 'text/plain' })
export class XResource implements McpResourceHandler {
  read() {
    return 'x';
  }
}
