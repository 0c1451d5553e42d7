/**
 * Session ids: minted from the CSPRNG, and the one syntax a client's `Mcp-Session-Id` is held to
 * before any lookup.
 *
 * A session id is an identifier, not a key: it names a session, and presenting it authorizes
 * nothing by itself (every request still passes the host's `authorize`, and the session answers
 * only the principal that opened it). It must be unguessable, so it comes from `randomBytes`; it
 * is never used to sign, seal or derive anything. That is the one use of `node:crypto` beside
 * hashing that the package's censuses admit, and only in `mintSessionId` (test/census).
 */
import { randomBytes } from 'node:crypto';
import { MAX_SESSION_ID_CHARS, SESSION_ID_BYTES } from '../limits.js';

/** A new session id: SESSION_ID_BYTES random bytes as base64url, visible ASCII (0x21-0x7E) only. */
export function mintSessionId(): string {
  return randomBytes(SESSION_ID_BYTES).toString('base64url');
}

const SYNTAX = new RegExp(`^[A-Za-z0-9._~+/=-]{1,${MAX_SESSION_ID_CHARS}}$`);

/** Whether a client's value may name a session: 1 to MAX_SESSION_ID_CHARS of `A-Za-z0-9._~+/=-`. */
export function isSessionIdSyntax(value: string): boolean {
  return SYNTAX.test(value);
}
