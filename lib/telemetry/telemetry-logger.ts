import diagnosticsChannel from 'node:diagnostics_channel';

import { Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';

import { faultStack } from '../errors/fault-containment.js';
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
  'mcp:answer:stalled': 'debug',
  'mcp:task:status': 'debug',
  'mcp:seam:error': 'error',
};

/** What the telemetry logger writes: fault events only, every event, or nothing. */
export type TelemetryLoggerMode = 'faults' | 'all' | false;

const logger = new Logger('Mcp');
/** Writes one event: its fields as JSON, and a fault's stack trace beside them (the fault object itself is not JSON). */
const handler = (name: McpChannel) => (message: unknown) => {
  const { fault, ...fields } = message as { fault?: unknown };
  const text = `${name} ${JSON.stringify(fields)}`;
  const stack = 'fault' in (message as object) ? faultStack(fault) : undefined;
  if (LEVELS[name] === 'error') {
    if (stack) logger.error(text, stack);
    else logger.error(text);
  } else logger[LEVELS[name]](stack ? `${text}\n${stack}` : text);
};
const FAULT_CHANNELS = MCP_CHANNELS.filter((name) => LEVELS[name] !== 'debug');
const subscriptions = {
  faults: new Map(FAULT_CHANNELS.map((name) => [name, handler(name)])),
  all: new Map(MCP_CHANNELS.filter((name) => LEVELS[name] === 'debug').map((name) => [name, handler(name)])),
};
const holders = { faults: 0, all: 0 };

/**
 * The default telemetry subscriber, writing through Nest's `Logger`. `faults` mode subscribes to fault channels
 * only, so a healthy request builds no event; subscriptions are shared, so each event is logged once per process.
 */
export class TelemetryLogger implements OnModuleInit, OnApplicationShutdown {
  private held: ('faults' | 'all')[] = [];

  constructor(private readonly mode: TelemetryLoggerMode) {}

  onModuleInit(): void {
    if (this.held.length || this.mode === false) return;
    this.held = this.mode === 'all' ? ['faults', 'all'] : ['faults'];
    for (const group of this.held) if (holders[group]++ === 0) for (const [name, fn] of subscriptions[group]) diagnosticsChannel.subscribe(name, fn);
  }

  onApplicationShutdown(): void {
    for (const group of this.held) if (--holders[group] === 0) for (const [name, fn] of subscriptions[group]) diagnosticsChannel.unsubscribe(name, fn);
    this.held = [];
  }
}
