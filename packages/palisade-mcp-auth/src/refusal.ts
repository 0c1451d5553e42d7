/**
 * A rule turned into the answer `authorize` returns: its status and rule name, and the header
 * that goes with the status. A 503 says when to come back (when the source that failed will be
 * asked again) and challenges nothing, since the token may be good; a 403 that is not about scope has nothing to
 * challenge for either; every other refusal carries its RFC 6750 challenge.
 */
import type { AuthorizeRefusal } from 'palisade-mcp/http';
import { challenge } from './challenge.js';
import type { Rule } from './rules.js';

export interface RefusalContext {
  readonly resourceMetadataUrl: string;
}

export function refusal(
  context: RefusalContext,
  rule: Rule,
  scopes: readonly string[],
  reason?: string,
  retryInMs = 0,
): AuthorizeRefusal {
  const because = reason === undefined ? {} : { reason };
  if (rule.status === 503) {
    // When the source that failed will be asked again; whole seconds, at least one (RFC 9110 §10.2.3).
    const retryAfter = String(Math.max(1, Math.ceil(retryInMs / 1000)));
    return { ok: false, status: 503, rule: rule.rule, headers: { 'retry-after': retryAfter }, ...because };
  }
  if (rule.status === 403 && rule.error === undefined)
    return { ok: false, status: 403, rule: rule.rule, ...because };
  const header = challenge(rule, context.resourceMetadataUrl, scopes);
  return {
    ok: false,
    status: rule.status,
    rule: rule.rule,
    headers: { 'www-authenticate': header },
    ...because,
  };
}
