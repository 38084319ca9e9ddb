import { Module } from '@nestjs/common';

import { McpModule } from '../../lib/index.js';
import { FIXTURE_TOOLS } from './fixture-tools.js';

/** The conformance fixture: what the official conformance suite calls (shared FIXTURE.md), from the public API only. */
@Module({
  imports: [McpModule.forRoot({ path: 'mcp', serverInfo: { name: 'nest-mcp-conformance-fixture', version: '0.1.0' } })],
  providers: [...FIXTURE_TOOLS],
})
export class ConformanceModule {}
