import { readFileSync } from 'node:fs';

import { describe, expect, it } from '@jest/globals';

import { TOOL_ANNOTATION_TYPES } from '../../lib/tools/tool-annotations.js';

describe('the tool annotations module init accepts', () => {
  it('are the vendored schema’s ToolAnnotations, key for key and type for type', () => {
    const document = JSON.parse(readFileSync(new URL('../../lib/schema/mcp-2026-07-28.schema.json', import.meta.url), 'utf8')) as {
      $defs: { ToolAnnotations: { properties: Record<string, { type: string }> } };
    };
    const vendored = Object.fromEntries(Object.entries(document.$defs.ToolAnnotations.properties).map(([key, schema]) => [key, schema.type]));
    expect(TOOL_ANNOTATION_TYPES).toEqual(vendored);
  });
});
