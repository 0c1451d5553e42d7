/** What every refusal of `bearer()` is held to, whatever its rule. */
import type { HttpLogEvent } from 'palisade-mcp/http';
import { expect } from 'vitest';
import type { Rule } from '../../src/index.js';

/**
 * The answer is the rule's status with its fixed challenge, the log names the rule, and neither
 * the answer nor the log carries a byte of the token (checked on a 16-character run of it).
 */
export async function expectRefused(
  response: Response,
  rule: Rule,
  events: readonly HttpLogEvent[],
  token?: string,
): Promise<void> {
  const body = await response.text();
  expect(response.status).toBe(rule.status);
  expect(events.at(-1)?.rule).toBe(rule.rule);
  const challenge = response.headers.get('www-authenticate') ?? '';
  if (rule.error !== undefined) expect(challenge).toContain(`error="${rule.error}"`);
  if (rule.description !== undefined) expect(challenge).toContain(`error_description="${rule.description}"`);
  if (token !== undefined && token.length >= 16) {
    const run = token.slice(-16);
    expect(body).not.toContain(run);
    expect(challenge).not.toContain(run);
    expect(JSON.stringify(events)).not.toContain(run);
  }
}
