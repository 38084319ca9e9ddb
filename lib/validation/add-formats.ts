import type { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';

/** ajv-formats' plugin; the package is CommonJS, so under ESM its function is the module itself or its `default`. */
const addFormatsPlugin = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
  options: { mode: 'full'; formats: string[]; keywords: boolean },
) => Ajv2020;

/**
 * Formats ajv-formats defines that a schema may not assert here, each with why: a caller's value is checked
 * against them on the request path. `url` (deprecated, in no JSON Schema draft) is one regex whose time is
 * quadratic in the value's length: a 100 KB value held the event loop for seconds. `regex` builds a RegExp of the
 * value, twenty times a plain string's cost per byte: one 4 MiB body held it for three seconds.
 */
export const REFUSED_FORMATS: Readonly<Record<string, string>> = {
  url: 'its check takes time quadratic in the value\'s length; use "uri" (RFC 3986), with a "pattern" such as "^https?://" for the scheme',
  regex:
    'its check compiles the value as a JavaScript RegExp, about a microsecond per character whatever its maxLength (a 4 MiB value holds the process for seconds); drop the format, and compile the pattern in the tool once its length is checked',
};

/** Adds ajv-formats' full formats to `ajv`, but the {@link REFUSED_FORMATS}, and its keywords (`formatMaximum`, …). */
export const addFormats = (ajv: Ajv2020): Ajv2020 =>
  addFormatsPlugin(ajv, { mode: 'full', formats: Object.keys(fullFormats).filter((name) => !Object.hasOwn(REFUSED_FORMATS, name)), keywords: true });
