import type { Format } from 'ajv';
import { Name, type Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';

import { byteFormat } from './byte-format.js';
import { emailFormat } from './email-format.js';
import { jsonPointerFormat, jsonPointerUriFragmentFormat, relativeJsonPointerFormat } from './json-pointer-format.js';
import { uriFormat, uriReferenceFormat } from './uri-format.js';
import { uriTemplateFormat } from './uri-template-format.js';

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

/**
 * Formats checked in a single pass, a few nanoseconds a character, with the answers of ajv-formats' own check (a
 * regex costing 25 to 100 ns a character): those the protocol schema asserts on what clients send (`uri`,
 * `uri-template`, `byte`), and the costliest a tool schema may (`uri-reference`, `email`, the JSON Pointers).
 */
export const SINGLE_PASS_FORMATS = {
  uri: uriFormat,
  byte: byteFormat,
  'uri-template': uriTemplateFormat,
  email: emailFormat,
  'json-pointer': jsonPointerFormat,
  'relative-json-pointer': relativeJsonPointerFormat,
  'json-pointer-uri-fragment': jsonPointerUriFragmentFormat,
  'uri-reference': uriReferenceFormat,
} as const;

/** The formats a schema may assert, by name: ajv-formats' full formats but the {@link REFUSED_FORMATS}, with the {@link SINGLE_PASS_FORMATS}. */
export const FORMATS: Readonly<Record<string, Format>> = Object.freeze({
  ...Object.fromEntries(Object.entries(fullFormats).filter(([name]) => !Object.hasOwn(REFUSED_FORMATS, name))),
  ...SINGLE_PASS_FORMATS,
});

/**
 * What ajv's standalone code names {@link FORMATS} by: the parameter of each precompiled module's export
 * (see precompiled-source.ts).
 */
export const FORMATS_PARAMETER = 'formats';

/** Adds the {@link FORMATS} to `ajv`, with ajv-formats' keywords (`formatMaximum`, …). */
export function addFormats(ajv: Ajv2020): Ajv2020 {
  // Set before the plugin, which otherwise names ajv-formats' own formats in standalone code.
  ajv.opts.code.formats ??= new Name(FORMATS_PARAMETER);
  addFormatsPlugin(ajv, { mode: 'full', formats: [], keywords: true });
  for (const [name, format] of Object.entries(FORMATS)) ajv.addFormat(name, format);
  return ajv;
}
