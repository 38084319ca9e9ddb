import diagnosticsChannel from 'node:diagnostics_channel';
import { Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { MCP_CHANNELS, type McpChannel } from './channels.js';

const LEVELS: Record<McpChannel, 'debug' | 'warn' | 'error'> = {
  'mcp:wire:reject': 'debug',
  'mcp:wire:fallthrough': 'debug',
  'mcp:method:error': 'error',
  'mcp:auth:error': 'error',
  'mcp:tool:start': 'debug',
  'mcp:tool:stop': 'debug',
  'mcp:tool:error': 'warn',
  'mcp:help:called': 'debug',
  'mcp:mrtr:input_required': 'debug',
  'mcp:request:cancelled': 'debug',
};

const logger = new Logger('Mcp');
const handlers = new Map<McpChannel, (message: unknown) => void>(
  MCP_CHANNELS.map((name) => [name, (message: unknown) => logger[LEVELS[name]](`${name} ${JSON.stringify(message)}`)]),
);
let holders = 0;

/**
 * The telemetry logger: the default subscriber, writing every telemetry event through Nest's `Logger` (faults
 * at error level, contained tool faults at warn, the rest at debug). On unless the `telemetryLogger` module
 * option is `false`. The subscription is shared: however many mounts hold it, each event is logged once.
 */
export class TelemetryLogger implements OnModuleInit, OnApplicationShutdown {
  private holding = false;

  constructor(private readonly enabled: boolean) {}

  onModuleInit(): void {
    if (this.holding || !this.enabled) return;
    this.holding = true;
    if (holders++ === 0) for (const [name, handler] of handlers) diagnosticsChannel.subscribe(name, handler);
  }

  onApplicationShutdown(): void {
    if (!this.holding) return;
    this.holding = false;
    if (--holders === 0) for (const [name, handler] of handlers) diagnosticsChannel.unsubscribe(name, handler);
  }
}
