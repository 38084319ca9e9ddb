import { Module } from '@nestjs/common';

import { McpModule } from '../../lib/index.js';
import { FIXTURE_PROMPTS } from './fixture-prompts.js';
import { FIXTURE_RESOURCES } from './fixture-resources.js';
import { FIXTURE_SUBSCRIPTIONS } from './fixture-subscriptions.js';
import { FIXTURE_TASKS } from './fixture-tasks.js';
import { FIXTURE_TOOLS } from './fixture-tools.js';
import { LEGACY_FIXTURE_TOOLS } from './legacy-fixture-tools.js';

/** The conformance fixture: what the official conformance suite calls, for both eras, from the public API only. */
@Module({
  imports: [McpModule.forRoot({ path: 'mcp', serverInfo: { name: 'nest-mcp-conformance-fixture', version: '0.1.0' } })],
  providers: [...FIXTURE_TOOLS, ...FIXTURE_TASKS, ...LEGACY_FIXTURE_TOOLS, ...FIXTURE_PROMPTS, ...FIXTURE_RESOURCES, ...FIXTURE_SUBSCRIPTIONS],
})
export class ConformanceModule {}
