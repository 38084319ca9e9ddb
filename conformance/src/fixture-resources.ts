import { McpResource, McpResourceTemplate, type McpResourceHandler, type McpResourceTemplateHandler, type McpUriVariables } from '../../lib/index.js';

/** Resources and the resource template the conformance suite lists and reads (both eras). */
const PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

/** Listed first: the suite's caching scenario reads the first listed resource. */
@McpResource({ uri: 'test://static-text', name: 'static-text', description: 'A static text resource.', mimeType: 'text/plain' })
export class StaticTextResource implements McpResourceHandler {
  read() {
    return 'This is the content of the static text resource.';
  }
}

@McpResource({ uri: 'test://static-binary', name: 'static-binary', description: 'A static binary resource (a 1×1 PNG).', mimeType: 'image/png' })
export class StaticBinaryResource implements McpResourceHandler {
  read() {
    return PIXEL_PNG;
  }
}

@McpResource({ uri: 'test://watched-resource', name: 'watched-resource', description: 'A resource clients may subscribe to.', mimeType: 'text/plain' })
export class WatchedResource implements McpResourceHandler {
  read() {
    return 'Watched resource content';
  }
}

@McpResourceTemplate({
  uriTemplate: 'test://template/{id}/data',
  name: 'template',
  description: 'Data for an id, substituted into the URI.',
  mimeType: 'application/json',
  complete: { id: (value) => ['123', '456', '789'].filter((id) => id.startsWith(value)) },
})
export class TemplateResource implements McpResourceTemplateHandler {
  read(_uri: string, { id }: McpUriVariables) {
    return JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` });
  }
}

/** In list order. */
export const FIXTURE_RESOURCES = [StaticTextResource, StaticBinaryResource, WatchedResource, TemplateResource];
