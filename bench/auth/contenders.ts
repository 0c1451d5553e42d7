/** What the auth bench and its server children share: who is served, and the token's names. */

export interface AuthContender {
  readonly name: string;
  /** Absent: `authorize` admits every request (the baseline). */
  readonly jwks?: { keys: Record<string, unknown>[] };
  readonly tokenCache?: number;
}

export const RESOURCE = 'https://mcp.bench.example/mcp';
export const ISSUER = 'https://auth.bench.example';

export type FromAuthServer =
  | { readonly type: 'ready'; readonly port: number }
  | { readonly type: 'cpu'; readonly micros: number }
  | { readonly type: 'closed' };
