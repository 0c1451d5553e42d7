/**
 * A catalog item's declared `requiredClientCapabilities`, checked before its host code runs:
 * against this request's `_meta` capabilities on 2026-07-28, against those declared at
 * `initialize` on 2025-11-25 (`ctx.clientCapabilities` holds whichever applies). Lacked: -32021.
 */
import { missingCapabilities } from '../../catalog/client-capabilities.js';
import type { JsonObject } from '../../catalog/types.js';
import { missingClientCapability } from '../errors.js';
import { type Call, failure, type Outcome } from './call.js';

export function refuseLackedCapabilities(call: Call, required: JsonObject | undefined): Outcome | undefined {
  if (required === undefined) return undefined;
  const lacked = missingCapabilities(required, call.ctx.clientCapabilities);
  return lacked === undefined ? undefined : failure(missingClientCapability(call.id, lacked));
}
