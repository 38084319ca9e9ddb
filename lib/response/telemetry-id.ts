import type { JsonRpcId } from '../contracts/request-record.js';
import { ECHOED_VALUE_MAX_CHARS } from '../protocol/echoed-values.js';
import { bounded } from '../util/bounded.js';

/** A request id as a telemetry event carries it: a string one bounded like any quoted value, so no subscriber logs it whole. */
export function telemetryId(id: JsonRpcId | undefined): JsonRpcId | undefined {
  return typeof id === 'string' ? bounded(id, ECHOED_VALUE_MAX_CHARS) : id;
}
