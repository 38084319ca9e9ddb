import { Module } from '@nestjs/common';

import { McpModule } from '../../lib/index.js';
import { FIXTURE_TOOLS } from './fixture-tools.js';
import { LEGACY_FIXTURE_TOOLS } from './legacy-fixture-tools.js';

/** The conformance fixture: what the official conformance suite calls, for both eras, from the public API only. */
@Module({
  imports: [McpModule.forRoot({ path: 'mcp', serverInfo: { name: 'nest-mcp-conformance-fixture', version: '0.1.0' } })],
  providers: [...FIXTURE_TOOLS, ...LEGACY_FIXTURE_TOOLS],
})
export class ConformanceModule {}
