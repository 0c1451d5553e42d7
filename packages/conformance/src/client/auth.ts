/** The OAuth client a conformance scenario authorizes with (filled in with the OAuth client). */
import type { HttpAuth, JsonObject } from 'palisade-mcp-client';

export function authFor(_scenario: string, _context: JsonObject): HttpAuth | undefined {
  return undefined;
}
