import type { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/**
 * ajv-formats' plugin, read through its CommonJS default export (the package is CJS; under ESM its function is
 * either the module itself or its `default`). Every ajv instance of this library adds formats through here.
 */
export const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;
