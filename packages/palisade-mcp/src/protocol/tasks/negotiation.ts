/**
 * The tasks extension is negotiated per request (SEP-2663 over SEP-2575): a request declares it
 * under `_meta["io.modelcontextprotocol/clientCapabilities"].extensions`, whatever any earlier
 * request said. Without it no task is created and the tasks methods answer -32021.
 */
import type { JsonObject } from '../../catalog/types.js';
import { isPlainObject } from '../../options.js';
import { missingClientCapability } from '../errors.js';
import { type Call, failure, type Outcome } from '../methods/call.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Whether this request declared the tasks extension. */
export function declaresTasks(clientCapabilities: Readonly<JsonObject>): boolean {
  const extensions = clientCapabilities['extensions'];
  return isPlainObject(extensions) && isPlainObject(extensions[TASKS_EXTENSION]);
}

/** -32021 naming the extension in `data.requiredCapabilities`. */
export function lacksTasks(call: Call): Outcome {
  return failure(missingClientCapability(call.id, { extensions: { [TASKS_EXTENSION]: {} } }));
}
