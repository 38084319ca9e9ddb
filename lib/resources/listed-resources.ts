import type { ProtocolShape } from '../protocol/protocol-schema.js';
import { bounded } from '../util/bounded.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { jsonValueOffence } from '../validation/json-value.js';
import type { UriTemplate } from './uri-template.js';

/** A template's side of its listing: where it is declared, what it matches, and what its entries inherit. */
export interface ListingTemplate {
  /** The declaration, as faults name it: `resource template "note" (NoteResource)`. */
  readonly where: string;
  readonly template: UriTemplate;
  /** The template's MIME type: the `mimeType` of an entry that names none. */
  readonly mimeType: string | undefined;
}

/**
 * The `resources/list` entries (MCP `Resource`) of what a template's `list` returned: each an object JSON can carry,
 * given the template's MIME type when it names none, conforming to `Resource`, at a URI the template matches (so
 * `resources/read` reads it). Anything else is the server's fault, a `TypeError` naming the template and the entry.
 */
export function listedResources(returned: unknown, listing: ListingTemplate, resource: ProtocolShape): Readonly<Record<string, unknown>>[] {
  const fault = (problem: string) => new TypeError(`${listing.where} list() ${problem}`);
  if (!Array.isArray(returned)) throw fault(`must return an array of resources, not ${bounded(returned, 60)}`);
  return returned.map((entry: unknown, index) => {
    const at = `resources[${index}]`;
    if (!isPlainObject(entry)) throw fault(`returned ${at}, which is not an object: ${bounded(entry, 60)}`);
    const notJson = jsonValueOffence(entry, ['resources', index]);
    if (notJson) throw fault(`returned a value JSON cannot carry, ${notJson}`);
    const filled = entry.mimeType === undefined && listing.mimeType !== undefined ? { ...entry, mimeType: listing.mimeType } : entry;
    if (!resource.conforms(filled)) {
      const [first] = resource.problems(filled);
      throw fault(`returned ${at}, which is not a valid MCP Resource: ${first ? `/${first.path.join('/')}: ${first.problem}` : 'refused'}`);
    }
    if (!listing.template.match(filled.uri as string))
      throw fault(
        `returned ${at} at ${JSON.stringify(bounded(filled.uri, 100))}, which its uriTemplate ${JSON.stringify(listing.template.template)} does not match (resources/read could not read it)`,
      );
    return filled;
  });
}
