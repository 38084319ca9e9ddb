// The bench app's root module: one MCP mount at /mcp with the bench tools, plus generated tools on demand.
import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { McpModule } from 'nest-mcp';

import { fillerCount } from '../common/bench-data.js';
import { BENCH_TOOLS, fillerTools, generatedActionTools } from './tools.js';

/** Which tools the bench app registers besides {@link BENCH_TOOLS}. */
export interface BenchAppSpec {
  /** How many tools to register in all: generated plain tools fill up after the bench tools (the `tools/list` workload). */
  tools?: number;
  /** Generated action tools, and the actions each has (the module-init workload). */
  actionTools?: { tools: number; actionsEach: number };
}

/** The root module of the bench app, built from a spec: `NestFactory.create(benchAppModule(spec))`. */
export function benchAppModule(spec: BenchAppSpec = {}): DynamicModule {
  const providers: Type[] = [...BENCH_TOOLS, ...fillerTools(fillerCount(spec.tools ?? 0, BENCH_TOOLS.length))];
  if (spec.actionTools) providers.push(...generatedActionTools(spec.actionTools.tools, spec.actionTools.actionsEach));
  return {
    module: BenchAppModule,
    imports: [
      McpModule.forRoot({
        path: 'mcp',
        serverInfo: { name: 'nest-mcp-bench', version: '0.1.0' },
        telemetryLogger: false, // no telemetry logger: none of the servers measured logs
      }),
    ],
    providers,
  };
}

/** The class behind {@link benchAppModule}. */
@Module({})
export class BenchAppModule {}
