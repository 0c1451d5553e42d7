/** PKCE (RFC 7636), S256 only, and the `state` value: 32 bytes from the CSPRNG each, base64url. */
import { createHash, randomBytes } from 'node:crypto';

export interface Pkce {
  readonly verifier: string;
  readonly challenge: string;
}

export function pkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function newState(): string {
  return randomBytes(32).toString('base64url');
}
