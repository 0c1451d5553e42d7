/**
 * How HTTP answers an UnavailableError (unavailable.ts), in one place for every path that meets
 * one (a stateless call, a session call, a session store): the refusal logged and published under
 * the store's own rule, and the Retry-After a 503 carries. The error checked both when it was made.
 */
import type { HostRuleName } from '../telemetry/refusal-rules.js';
import type { UnavailableError } from '../unavailable.js';
import { INTERNAL_ERROR } from '../wire/codes.js';
import { type HttpRefusal, lateRefusal } from './refusals.js';

export interface UnavailableAnswer {
  readonly refusal: HttpRefusal;
  /** For a 503: an answer whose stream already started has sent its status and headers. */
  readonly headers: Readonly<Record<string, string>>;
}

/** `status` is what the client is told: 503, or the 200 of a stream that had already begun. */
export function unavailableAnswer(error: UnavailableError, status = 503): UnavailableAnswer {
  return {
    // Stryker disable next-line StringLiteral: a late refusal is logged and published by rule, status and code; its message is never written
    refusal: lateRefusal(error.rule as HostRuleName, status, INTERNAL_ERROR, 'Service unavailable'),
    headers: { 'retry-after': String(error.retryAfterSeconds) },
  };
}
