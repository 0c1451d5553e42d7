/**
 * The `WWW-Authenticate` challenge of a refusal (RFC 6750 §3, RFC 9728 §5.1): the scheme, the
 * error code and its fixed description when there is one, the scopes the operation needs, and
 * where the protected-resource metadata is. Every value is ours: the description comes from the
 * rule table and the scopes from the host's configuration, checked at construction to hold no
 * character a quoted string could not carry.
 */
import type { Rule } from './rules.js';

export function challenge(rule: Rule, resourceMetadata: string, scopes: readonly string[]): string {
  const parts: string[] = [];
  if (rule.error !== undefined) parts.push(`error="${rule.error}"`);
  if (rule.description !== undefined) parts.push(`error_description="${rule.description}"`);
  if (scopes.length > 0) parts.push(`scope="${scopes.join(' ')}"`);
  parts.push(`resource_metadata="${resourceMetadata}"`);
  return `Bearer ${parts.join(', ')}`;
}
