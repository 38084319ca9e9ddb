import { McpResource, McpResourceTemplate, type McpResourceHandler, type McpResourceTemplateHandler } from '../../lib/index.js';

/** The smallest resource: text at `test://x`, for tests that need the resources capability and one readable URI. */
@McpResource({ uri: 'test://x', name: 'x', mimeType: 'text/plain' })
export class XResource implements McpResourceHandler {
  read() {
    return 'x';
  }
}

/** The smallest resource template: text at `test://items/{id}`, for tests that need one template. */
@McpResourceTemplate({ uriTemplate: 'test://items/{id}', name: 'item', mimeType: 'text/plain' })
export class ItemTemplate implements McpResourceTemplateHandler {
  read(uri: string) {
    return `item at ${uri}`;
  }
}
